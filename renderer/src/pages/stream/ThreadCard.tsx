import { useState } from 'react';
import { destroyStatus } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useChannel } from '../../session.tsx';
import { CommentForm } from './CommentForm.tsx';
import { EditPost } from './EditPost.tsx';
import { PostBody } from './PostBody.tsx';
import { Reactions } from './Reactions.tsx';
import { loadThread } from './loadThread.ts';
import { isMine, type Thread } from './threads.ts';

/** A post with its likes, comments and the comment box. */
export function ThreadCard({ thread, onReplace, onRemoved }: { thread: Thread; onReplace: (t: Thread) => void; onRemoved: () => void }) {
  const channel = useChannel();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Status>();
  const { top, comments } = thread;

  const refresh = async () => onReplace(await loadThread(top.id));

  const remove = async (s: Status) => {
    await destroyStatus(s.id);
    if (s.id === top.id) onRemoved();
    else await refresh();
  };

  return (
    <article className="card thread" aria-label={`Post by ${(top.friendica_author ?? top.user).name}`} data-status-id={top.id}>
      {editing ? (
        <EditPost status={top} onDone={async (saved) => (setEditing(false), saved ? refresh() : undefined)} />
      ) : (
        <PostBody status={top} />
      )}
      <div className="thread-bar">
        <Reactions status={top} onChanged={refresh} />
        {isMine(top, channel.nick) && !editing && (
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
      {comments.length > 0 && (
        <ol className="comments" aria-label="Comments">
          {comments.map((c) => (
            <li key={c.id} className="comment">
              <PostBody status={c} compact />
              <div className="thread-bar thread-bar-compact">
                <Reactions status={c} onChanged={refresh} />
                {isMine(c, channel.nick) && (
                  <button type="button" className="link-button link-danger" onClick={() => setDeleting(c)}>
                    Delete
                  </button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      <CommentForm parentId={top.id} onPosted={refresh} />
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
