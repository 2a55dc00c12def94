import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commentTree, type CommentNode } from '../../renderer/src/pages/stream/commentTree.ts';
import { conversationsOf, type DirectMessage } from '../../renderer/src/api/messages.ts';
import type { Notification, Status } from '../../renderer/src/api/types.ts';
import { groupNotifications, groupText } from '../../renderer/src/pages/notifications/grouping.ts';

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

const LIKE = 'http://activitystrea.ms/schema/1.0/like';
const SHARE = 'http://activitystrea.ms/schema/1.0/share';
const note = (id: number, name: string, type: number, verb: string, postId: number | null, msg = `${name} did something`) =>
  ({ id, name, url: `/channel/${name.toLowerCase()}`, type, verb, post_id: postId, msg_plain: msg, seen: false }) as unknown as Notification;

test('groupNotifications puts likes and shares of one post together, where the first was, and leaves the rest alone', () => {
  const groups = groupNotifications([
    note(9, 'Erin', 1024, LIKE, 1, 'Erin likes your post'),
    note(8, 'Bob', 8, 'post', 1, 'Bob commented on your post: yes'),
    note(7, 'Dave', 1024, LIKE, 1),
    note(6, 'Bob', 1024, LIKE, 2, 'Bob likes your post'),
    note(5, 'Carol', 1024, SHARE, 1, 'Carol shared your post'),
    note(4, 'Carol', 1024, LIKE, 1),
    note(3, 'Bob', 1024, LIKE, 1),
    note(2, 'Bob', 8, 'post', 1, 'Bob commented on your post: no'),
    note(1, 'Zoe', 1024, LIKE, null, 'Zoe likes your post'),
  ]);
  assert.deepEqual(
    groups.map((g) => [g.members.map((n) => n.id), groupText(g)]),
    [
      [[9, 7, 4, 3], 'Erin and 3 others like your post'],
      [[8], 'Bob commented on your post: yes'],
      [[6], 'Bob likes your post'],
      [[5], 'Carol shared your post'],
      [[2], 'Bob commented on your post: no'],
      [[1], 'Zoe likes your post'],
    ],
  );
});

test('groupText names two people, and one who liked twice once', () => {
  const [two] = groupNotifications([note(2, 'Bob', 1024, SHARE, 1, 'Bob shared your post'), note(1, 'Carol', 1024, SHARE, 1)]);
  assert.equal(groupText(two!), 'Bob and Carol shared your post');
  const [again] = groupNotifications([note(2, 'Bob', 1024, LIKE, 1, 'Bob likes your post'), note(1, 'Bob', 1024, LIKE, 1, 'Bob likes your post')]);
  assert.equal(groupText(again!), 'Bob likes your post');
});
