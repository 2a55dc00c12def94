import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string };
type Status = { id: string; content: string; account: Account; in_reply_to_id: string | null; favourites_count: number; reblogs_count: number; visibility: string; reblog: Status | null; uri: string; edited_at: string | null };

describe('posts, replies, likes, shares, edits and deletes between Hearth and an independent server', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  let ap1: Account;

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2'] });
    alice = mastodonClient(t, 'alice');
    // ap1 follows alice and alice follows ap1.
    await peer.follow('ap1', aliceId());
    await peer.waitFor((r) => r.type === 'Accept' && r.actor === aliceId());
    const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address('ap1'))}&resolve=true&type=accounts`);
    ap1 = found.accounts[0]!;
    await alice.post(`/api/v1/accounts/${ap1.id}/follow`);
    await eventually('alice follows ap1', () => peer.followersOf('ap1').includes(aliceId()));
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const home = () => alice.get<Status[]>('/api/v1/timelines/home');
  const inHome = (text: string) => eventually(`"${text}" in alice's home`, async () => (await home()).find((s) => s.content.includes(text)));

  it("alice's public post reaches her follower as a Create of a Note, addressed to Public and her followers", async () => {
    const status = await alice.post<Status>('/api/v1/statuses', { status: 'Hello fediverse from Hearth #hearth' });
    const create = await peer.waitFor((r) => r.type === 'Create' && r.actor === aliceId());
    const note = create.json.object as Record<string, unknown>;
    assert.equal(note.type, 'Note');
    assert.match(String(note.content), /Hello fediverse from Hearth/);
    assert.equal(note.attributedTo, aliceId());
    assert.equal(note.to, 'as:Public');
    assert.equal(note.cc, `${aliceId()}/followers`);
    assert.equal(status.uri, note.id);
    // The Note is served at its id to anyone.
    const served = await fetch(String(note.id), { headers: { accept: 'application/activity+json' } });
    assert.equal(served.status, 200);
  });

  it("ap1's public post lands in alice's home timeline, with its author's address", async () => {
    await peer.post('ap1', { content: '<p>Greetings from the other server</p>' });
    const s = await inHome('Greetings from the other server');
    assert.equal(s.account.acct, peer.address('ap1'));
    assert.equal(s.visibility, 'public');
  });

  it("ap1 replies to alice's post: a comment in her thread, and she is notified", async () => {
    const mine = await alice.post<Status>('/api/v1/statuses', { status: 'Who wants tea?' });
    const create = await peer.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes('Who wants tea'));
    const noteId = String((create.json.object as { id: string }).id);
    await peer.post('ap1', { content: '<p>Me, please!</p>', inReplyTo: noteId, mentions: [aliceId()] });
    const ctx = await eventually('the reply in the thread', async () => {
      const c = await alice.get<{ descendants: Status[] }>(`/api/v1/statuses/${mine.id}/context`);
      return c.descendants.find((d) => d.content.includes('Me, please!'));
    });
    assert.equal(ctx.in_reply_to_id, mine.id);
    const notes = await alice.get<{ type: string; account: Account }[]>('/api/v1/notifications');
    assert.ok(notes.some((n) => n.account.acct === peer.address('ap1') && (n.type === 'mention' || n.type === 'status')), JSON.stringify(notes.map((n) => n.type)));
  });

  it("alice replies to ap1's post: the reply reaches ap1 with inReplyTo", async () => {
    const noteId = await peer.post('ap1', { content: '<p>Anyone up for a walk?</p>' });
    const theirs = await inHome('Anyone up for a walk?');
    await alice.post('/api/v1/statuses', { status: 'Count me in', in_reply_to_id: theirs.id });
    const reply = await peer.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes('Count me in'));
    assert.equal((reply.json.object as { inReplyTo?: string }).inReplyTo, noteId);
  });

  it('likes both ways, and their undo', async () => {
    const noteId = await peer.post('ap1', { content: '<p>Like this one</p>' });
    const theirs = await inHome('Like this one');
    await alice.post(`/api/v1/statuses/${theirs.id}/favourite`);
    const like = await peer.waitFor((r) => r.type === 'Like' && r.actor === aliceId());
    assert.equal(like.json.object, noteId);
    await alice.post(`/api/v1/statuses/${theirs.id}/unfavourite`);
    const undo = await peer.waitFor((r) => r.type === 'Undo' && (r.json.object as { type?: string }).type === 'Like');
    assert.equal(undo.actor, aliceId());

    const mine = await alice.post<Status>('/api/v1/statuses', { status: 'Please like me' });
    const likeId = await peer.like('ap1', mine.uri, aliceId());
    await eventually('the like counted', async () => (await alice.get<Status>(`/api/v1/statuses/${mine.id}`)).favourites_count === 1);
    const notes = await alice.get<{ type: string; account: Account }[]>('/api/v1/notifications?types[]=favourite');
    assert.ok(notes.some((n) => n.account.acct === peer.address('ap1')));
    await peer.undo('ap1', 'Like', likeId, mine.uri, aliceId());
    await eventually('the like undone', async () => (await alice.get<Status>(`/api/v1/statuses/${mine.id}`)).favourites_count === 0);
  });

  it('shares both ways, and their undo', async () => {
    const noteId = await peer.post('ap1', { content: '<p>Share this</p>' });
    const theirs = await inHome('Share this');
    await alice.post(`/api/v1/statuses/${theirs.id}/reblog`);
    const announce = await peer.waitFor((r) => r.type === 'Announce' && r.actor === aliceId());
    assert.equal(announce.json.object, noteId);
    await alice.post(`/api/v1/statuses/${theirs.id}/unreblog`);
    await peer.waitFor((r) => r.type === 'Undo' && (r.json.object as { type?: string }).type === 'Announce');

    const mine = await alice.post<Status>('/api/v1/statuses', { status: 'Boost me' });
    const announceId = await peer.announce('ap1', mine.uri, aliceId());
    await eventually('the share counted', async () => (await alice.get<Status>(`/api/v1/statuses/${mine.id}`)).reblogs_count === 1);
    await peer.undo('ap1', 'Announce', announceId, mine.uri, aliceId());
    await eventually('the share undone', async () => (await alice.get<Status>(`/api/v1/statuses/${mine.id}`)).reblogs_count === 0);
  });

  it('edits and deletes both ways', async () => {
    const mine = await alice.post<Status>('/api/v1/statuses', { status: 'Frist post' });
    await peer.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes('Frist post'));
    const r = await alice.raw(`/api/v1/statuses/${mine.id}`, { method: 'PUT', json: { status: 'First post' } });
    assert.equal(r.status, 200);
    const update = await peer.waitFor((x) => x.type === 'Update' && x.actor === aliceId());
    assert.match(String((update.json.object as { content?: string }).content), /First post/);
    await alice.raw(`/api/v1/statuses/${mine.id}`, { method: 'DELETE' });
    const del = await peer.waitFor((x) => x.type === 'Delete' && x.actor === aliceId());
    assert.equal((del.json.object as { id?: string }).id ?? del.json.object, mine.uri);

    const noteId = await peer.post('ap1', { content: '<p>Tpyo here</p>' });
    const theirs = await inHome('Tpyo here');
    await peer.update('ap1', noteId, '<p>Typo fixed</p>');
    await eventually('the edit shown', async () => (await alice.get<Status>(`/api/v1/statuses/${theirs.id}`)).content.includes('Typo fixed'));
    await peer.remove('ap1', noteId);
    await eventually('the post gone', async () => (await alice.raw(`/api/v1/statuses/${theirs.id}`)).status === 404);
  });
});
