import { useState } from 'react';
import type { Status } from '../../api/types.ts';
import { useChannel } from '../../session.tsx';
import { CommentForm } from './CommentForm.tsx';
import { EditComment } from './EditComment.tsx';
import { PostBody } from './PostBody.tsx';
import { Reactions } from './Reactions.tsx';
import { commentTree, type CommentNode } from './commentTree.ts';
import { authorOf, isMine } from './threads.ts';

interface Actions {
  refresh: () => Promise<void>;
  onDelete: (c: Status) => void;
}

/** The thread's comments, replies nested under the comment they answer. */
export function Comments({ topId, comments, ...actions }: { topId: number; comments: Status[] } & Actions) {
  if (!comments.length) return null;
  return <CommentList nodes={commentTree(topId, comments)} label="Comments" {...actions} />;
}

function CommentList({ nodes, label, ...actions }: { nodes: CommentNode[]; label: string } & Actions) {
  return (
    <ol className="comments" aria-label={label}>
      {nodes.map((n) => (
        <CommentItem key={n.comment.id} node={n} {...actions} />
      ))}
    </ol>
  );
}

function CommentItem({ node, refresh, onDelete }: { node: CommentNode } & Actions) {
  const channel = useChannel();
  const [mode, setMode] = useState<'reading' | 'editing' | 'replying'>('reading');
  const c = node.comment;
  const author = authorOf(c);
  const authorName = author.name || author.screen_name;
  const mine = isMine(c, channel.nick);

  return (
    <li className="comment" data-status-id={c.id} aria-label={`Comment by ${authorName}`}>
      {mode === 'editing' ? (
        <EditComment comment={c} onDone={async (saved) => (setMode('reading'), saved ? refresh() : undefined)} />
      ) : (
        <PostBody status={c} compact />
      )}
      <div className="thread-bar thread-bar-compact">
        <Reactions status={c} onChanged={refresh} />
        <div className="post-tools">
          <button type="button" className="link-button" onClick={() => setMode('replying')}>
            Reply
          </button>
          {mine && mode !== 'editing' && (
            <button type="button" className="link-button" onClick={() => setMode('editing')}>
              Edit
            </button>
          )}
          {mine && (
            <button type="button" className="link-button link-danger" onClick={() => onDelete(c)}>
              Delete
            </button>
          )}
        </div>
      </div>
      {node.replies.length > 0 && <CommentList nodes={node.replies} label={`Replies to ${authorName}`} refresh={refresh} onDelete={onDelete} />}
      {mode === 'replying' && (
        <CommentForm parentId={c.id} replyingTo={authorName} onCancel={() => setMode('reading')} onPosted={async () => (setMode('reading'), refresh())} />
      )}
    </li>
  );
}
