import type { Status } from '../../api/types.ts';

export interface CommentNode {
  comment: Status;
  replies: CommentNode[];
}

/**
 * The thread's comments as a tree: a reply hangs under the comment it answers, in the order
 * written. A reply whose comment is not in the list (deleted, or hidden) hangs under the post.
 */
export function commentTree(topId: number, comments: Status[]): CommentNode[] {
  const nodes = new Map(comments.map((c) => [c.id, { comment: c, replies: [] as CommentNode[] }]));
  const roots: CommentNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.comment.in_reply_to_status_id;
    const parent = parentId && parentId !== topId ? nodes.get(parentId) : undefined;
    (parent ? parent.replies : roots).push(node);
  }
  return roots;
}
