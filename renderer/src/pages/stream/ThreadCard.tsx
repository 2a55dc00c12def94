import { useState } from 'react';
import { destroyStatus } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useChannel } from '../../session.tsx';
import { CommentForm } from './CommentForm.tsx';
import { Comments } from './Comments.tsx';
import { EditPost } from './EditPost.tsx';
import { PostBody } from './PostBody.tsx';
import { Reactions } from './Reactions.tsx';
import { ShareButton } from './ShareButton.tsx';
import { SharedBy, sharersText } from './SharedBy.tsx';
import { loadThread } from './loadThread.ts';
import { isMine, mergeShares, type Thread } from './threads.ts';

/** A post with its likes, comments and the comment box. */
export function ThreadCard({ thread, onReplace, onRemoved }: { thread: Thread; onReplace: (t: Thread) => void; onRemoved: () => void }) {
  const channel = useChannel();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Status>();
  const { top, comments } = thread;
  const shares = thread.shares ?? [];
  const mine = isMine(top, channel.nick);
  const author = (top.friendica_author ?? top.user).name;

  // The shares that brought the thread here stay with it, but for the owner's own once withdrawn.
  const refresh = async (share?: Status) => {
    const fresh = await loadThread(top.id);
    const kept = fresh.top.retweeted ? shares : shares.filter((s) => !isMine(s, channel.nick));
    onReplace({ ...fresh, shares: share?.retweeted_status ? mergeShares(kept, [share]) : kept });
  };

  const remove = async (s: Status) => {
    await destroyStatus(s.id);
    if (s.id === top.id) onRemoved();
    else await refresh();
  };

  return (
    <article className="card thread" aria-label={shares.length ? `Post by ${author}, shared by ${sharersText(shares, channel.nick)}` : `Post by ${author}`} data-status-id={top.id}>
      {shares.length > 0 && <SharedBy shares={shares} nick={channel.nick} />}
      {editing ? (
        <EditPost status={top} onDone={async (saved) => (setEditing(false), saved ? refresh() : undefined)} />
      ) : (
        <PostBody status={top} onChanged={() => void refresh()} />
      )}
      <div className="thread-bar">
        <Reactions status={top} onChanged={refresh} />
        <ShareButton status={top} onChanged={refresh} />
        {mine && !editing && (
          <div className="post-tools">
            <button type="button" className="link-button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="link-button link-danger" onClick={() => setDeleting(top)}>
              Delete
            </button>
          </div>
        )}
      </div>
      {thread.commentsError && <ErrorNote error={`The comments could not be loaded: ${thread.commentsError}`} onRetry={() => void refresh()} />}
      <Comments topId={top.id} comments={comments} refresh={() => refresh()} onDelete={setDeleting} />
      <CommentForm parentId={top.id} onPosted={() => refresh()} />
      {deleting && (
        <ConfirmDialog
          title={deleting.id === top.id ? 'Delete this post?' : 'Delete this comment?'}
          message={deleting.id === top.id ? 'The post and its comments will be removed for everyone. This cannot be undone.' : 'The comment will be removed for everyone. This cannot be undone.'}
          confirmLabel="Delete"
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </article>
  );
}
