import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commentTree, type CommentNode } from '../../renderer/src/pages/stream/commentTree.ts';
import { conversationsOf, type DirectMessage } from '../../renderer/src/api/messages.ts';
import type { Status } from '../../renderer/src/api/types.ts';

const status = (id: number, replyTo: number | null) => ({ id, in_reply_to_status_id: replyTo, text: `#${id}` }) as Status;
const shape = (nodes: CommentNode[]): unknown[] => nodes.map((n) => (n.replies.length ? [n.comment.id, shape(n.replies)] : n.comment.id));

test('commentTree nests replies under the comment they answer, in the order written', () => {
  const tree = commentTree(1, [status(2, 1), status(3, 2), status(4, 1), status(5, 3), status(6, 2)]);
  assert.deepEqual(shape(tree), [[2, [[3, [5]], 6]], 4]);
});

test('commentTree hangs a reply whose comment is missing (deleted, or hidden) under the post', () => {
  assert.deepEqual(shape(commentTree(1, [status(3, 2), status(4, 1)])), [3, 4]);
});

const dm = (id: number, from: string, to: string, seen: boolean) =>
  ({ id, text: `m${id}`, title: '', created_at: '', sender_screen_name: from, recipient_screen_name: to, friendica_seen: seen, friendica_parent_uri: '' }) as DirectMessage;

test('conversationsOf groups messages by the other person, latest first, counting only unread received ones', () => {
  const list = conversationsOf([dm(5, 'alice', 'bob', true), dm(4, 'carol', 'alice', false), dm(3, 'Bob', 'alice', false), dm(2, 'bob', 'alice', true), dm(1, 'alice', 'carol', false)], 'alice');
  assert.deepEqual(
    list.map((c) => [c.nick, c.last.id, c.unread]),
    [
      ['bob', 5, 1],
      ['carol', 4, 1],
    ],
  );
});
