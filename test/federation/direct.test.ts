import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer, type Received } from '../helpers/fedify-peer.js';
import { deliveriesSettled, eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string };
type Status = { id: string; content: string; visibility: string; uri: string; account: Account; in_reply_to_id: string | null };
type Conversation = { id: string; unread: boolean; accounts: Account[]; last_status: Status };
type Dm = { id: number; text: string; sender_screen_name: string; recipient_screen_name: string; friendica_seen: boolean; friendica_parent_uri: string; title: string };

/**
 * Direct messages between a Hearth channel and people elsewhere. A message is one thing whichever
 * API shows it: a conversation of the Mastodon API, a direct message of the microblog API (which
 * the UI's Messages page reads), a direct Note to the other server.
 */
describe('direct messages between Hearth and an independent server', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  let bob: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  let ap1: Account;

  before(async () => {
    t = await startFederatingHub(['alice', 'bob']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3'], sharedInbox: false });
    alice = mastodonClient(t, 'alice');
    bob = mastodonClient(t, 'bob');
    // ap2 follows alice: a follower must not get her direct messages to ap1.
    await peer.follow('ap2', aliceId());
    await peer.waitFor((r) => r.type === 'Accept' && r.inbox === 'ap2');
    const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address('ap1'))}&resolve=true&type=accounts`);
    ap1 = found.accounts[0]!;
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const dms = async (as: string, path = 'direct_messages/all') => {
    const r = await t.request(`/api/${path}.json?getText=html`, { as });
    assert.equal(r.status, 200);
    return (await r.json()) as Dm[];
  };
  const conversations = (client: ReturnType<typeof mastodonClient>) => client.get<Conversation[]>('/api/v1/conversations');
  const noteOf = (r: Received) => r.json.object as { id: string; to?: unknown; cc?: unknown; tag?: unknown; inReplyTo?: string; content?: string };
  const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  /** The Create of the note with this text, once every delivery of it was made; fails if anyone but ap1 got it. */
  const deliveredToAp1Only = async (text: string) => {
    const create = await peer.waitFor((r) => r.type === 'Create' && String(noteOf(r).content).includes(text));
    await deliveriesSettled(t);
    const all = peer.received.filter((r) => r.type === 'Create' && String(noteOf(r).content).includes(text));
    assert.deepEqual(all.map((r) => r.inbox), ['ap1'], 'delivered to ap1 alone');
    const note = noteOf(create);
    assert.deepEqual(list(note.to), [peer.actorUri('ap1')], 'addressed to ap1 only');
    assert.deepEqual(list(note.cc), []);
    const mentions = list(note.tag).filter((tag) => (tag as { type?: string }).type === 'Mention').map((tag) => (tag as { href?: string }).href);
    assert.deepEqual(mentions, [peer.actorUri('ap1')], 'a Mention of ap1');
    return note;
  };

  let incomingNote = '';
  it("a direct Note from elsewhere is a conversation in the Mastodon API and a message in the microblog API (the UI's Messages), for alice alone", async () => {
    incomingNote = await peer.post('ap1', { content: '<p>Psst, a secret for alice</p>', audience: 'direct', mentions: [aliceId()] });
    const conv = await eventually('the conversation', async () => (await conversations(alice)).find((c) => c.last_status.content.includes('a secret for alice')));
    assert.equal(conv.last_status.visibility, 'direct');
    assert.deepEqual(conv.accounts.map((a) => a.acct), [peer.address('ap1')]);
    assert.equal(conv.unread, true);
    const [dm] = (await dms('alice', 'direct_messages')).filter((m) => m.text.includes('a secret for alice'));
    assert.ok(dm, 'in the direct messages alice received');
    assert.equal(dm.sender_screen_name, peer.address('ap1'));
    assert.equal(dm.recipient_screen_name, 'alice');
    assert.equal(dm.friendica_seen, false);
    const notes = await alice.get<{ type: string; status?: Status }[]>('/api/v1/notifications');
    assert.equal(notes.filter((n) => n.status?.id === conv.last_status.id).length, 1, 'one notification, a mention in Mastodon terms');
    assert.equal(notes.find((n) => n.status?.id === conv.last_status.id)!.type, 'mention');
    // Read in the microblog API, read in the Mastodon API.
    assert.equal((await t.request(`/api/ext/direct_messages_setseen.json?id=${dm.id}`, { as: 'alice' })).status, 200);
    assert.equal((await conversations(alice)).find((c) => c.id === conv.id)!.unread, false);
    // bob, another channel of the hub, sees none of it.
    assert.equal((await conversations(bob)).length, 0);
    assert.equal((await dms('bob')).length, 0);
    assert.equal((await bob.raw(`/api/v1/statuses/${conv.last_status.id}`)).status, 404);
    assert.equal((await fetch(`${t.url}/api/v1/statuses/${conv.last_status.id}`)).status, 404);
  });

  it('alice answers it in the Mastodon API: a direct Note to ap1 alone, in reply to its note, and in her messages', async () => {
    const conv = (await conversations(alice)).find((c) => c.last_status.content.includes('a secret for alice'))!;
    await alice.post('/api/v1/statuses', { status: `@${peer.address('ap1')} Safe with me`, visibility: 'direct', in_reply_to_id: conv.last_status.id });
    const note = await deliveredToAp1Only('Safe with me');
    assert.equal(note.inReplyTo, incomingNote);
    const sent = (await dms('alice', 'direct_messages/sent')).find((m) => m.text.includes('Safe with me'));
    assert.ok(sent, 'among the messages alice sent');
    assert.equal(sent.recipient_screen_name, peer.address('ap1'));
    const received = (await dms('alice', 'direct_messages')).find((m) => m.text.includes('a secret for alice'))!;
    assert.equal(sent.friendica_parent_uri, received.friendica_parent_uri, 'one conversation');
  });

  it('a direct post of a Mastodon app to someone elsewhere the hub has never seen: looked up, and reached', async () => {
    const status = await alice.post<Status & { mentions: Account[] }>('/api/v1/statuses', { status: `@${peer.address('ap3')} nice to meet you`, visibility: 'direct' });
    assert.deepEqual(status.mentions.map((m) => m.acct), [peer.address('ap3')]);
    const create = await peer.waitFor((r) => r.type === 'Create' && String(noteOf(r).content).includes('nice to meet you'));
    assert.equal(create.inbox, 'ap3');
    assert.deepEqual(list(noteOf(create).to), [peer.actorUri('ap3')]);
  });

  let firstMessage: Dm;
  it("a message from the microblog API (as the UI's Messages sends it) to someone elsewhere is a direct Note, and a Mastodon conversation", async () => {
    const r = await t.request('/api/direct_messages/new.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ screen_name: peer.address('ap1'), text: 'Tea at five?' }) });
    assert.equal(r.status, 200, await r.clone().text());
    firstMessage = (await r.json()) as Dm;
    assert.equal(firstMessage.recipient_screen_name, peer.address('ap1'));
    const note = await deliveredToAp1Only('Tea at five?');
    assert.equal(note.inReplyTo, undefined);
    const conv = (await conversations(alice)).find((c) => c.last_status.content.includes('Tea at five?'));
    assert.ok(conv, 'a conversation in the Mastodon API');
    assert.equal(conv.last_status.visibility, 'direct');
    assert.equal(conv.last_status.uri, note.id);
    assert.deepEqual(conv.accounts.map((a) => a.id), [ap1.id]);
    assert.equal(conv.unread, false, 'her own message');
    assert.equal((await fetch(note.id, { headers: { accept: 'application/activity+json' } })).status, 401, 'not served to anonymous fetches');
  });

  it('replies continue the conversation both ways', async () => {
    const teaNote = noteOf(peer.received.find((r) => r.type === 'Create' && String(noteOf(r).content).includes('Tea at five?'))!).id;
    const replyNote = await peer.post('ap1', { content: '<p>Five is perfect</p>', audience: 'direct', mentions: [aliceId()], inReplyTo: teaNote });
    const answer = await eventually('the answer among the messages', async () => (await dms('alice')).find((m) => m.text.includes('Five is perfect')));
    assert.equal(answer.friendica_parent_uri, firstMessage.friendica_parent_uri, 'in the same conversation');
    assert.equal(answer.sender_screen_name, peer.address('ap1'));
    const conv = (await conversations(alice)).find((c) => c.last_status.uri === teaNote)!;
    const context = await alice.get<{ descendants: Status[] }>(`/api/v1/statuses/${conv.last_status.id}/context`);
    const reply = context.descendants.find((s) => s.content.includes('Five is perfect'));
    assert.ok(reply, 'in the thread');
    assert.equal(reply.visibility, 'direct');
    // alice answers in the microblog API, as the UI does: replyto the newest message.
    const r = await t.request('/api/direct_messages/new.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ replyto: String(answer.id), text: 'See you then' }) });
    assert.equal(r.status, 200, await r.clone().text());
    const mine = (await r.json()) as Dm;
    assert.equal(mine.friendica_parent_uri, firstMessage.friendica_parent_uri);
    const note = await deliveredToAp1Only('See you then');
    assert.equal(note.inReplyTo, replyNote);
  });

  it('a channel that blocked someone elsewhere gets no messages from them', async () => {
    const found = await bob.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address('ap2'))}&resolve=true&type=accounts`);
    await bob.post(`/api/v1/accounts/${found.accounts[0]!.id}/block`);
    await peer.post('ap2', { content: '<p>Let me in, bob</p>', audience: 'direct', mentions: [`${t.url}/channel/bob`] });
    await peer.post('ap1', { content: '<p>Hello bob</p>', audience: 'direct', mentions: [`${t.url}/channel/bob`] });
    await eventually("ap1's message to bob", async () => (await dms('bob', 'direct_messages')).some((m) => m.text.includes('Hello bob')));
    await deliveriesSettled(t);
    assert.ok(!(await dms('bob')).some((m) => m.text.includes('Let me in')), 'not among his messages');
    assert.ok(!(await conversations(bob)).some((c) => c.last_status.content.includes('Let me in')), 'nor his conversations');
    const notes = await bob.get<{ account: Account }[]>('/api/v1/notifications');
    assert.ok(!notes.some((n) => n.account.acct === peer.address('ap2')), 'nor his notifications');
  });

  it('a message between two channels of the hub is one message in both APIs too, and goes nowhere else', async () => {
    const before = peer.received.length;
    const r = await t.request('/api/direct_messages/new.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ screen_name: 'bob', text: 'Lunch, bob?' }) });
    assert.equal(r.status, 200);
    const conv = await eventually("bob's conversation", async () => (await conversations(bob)).find((c) => c.last_status.content.includes('Lunch, bob?')));
    assert.equal(conv.unread, true);
    assert.ok((await dms('bob', 'direct_messages')).some((m) => m.text.includes('Lunch, bob?')));
    const mastodonDm = await alice.post<Status>('/api/v1/statuses', { status: '@bob or dinner?', visibility: 'direct' });
    const dm = (await dms('bob', 'direct_messages')).find((m) => m.text.includes('or dinner?'));
    assert.ok(dm, 'a Mastodon direct post is a message in the microblog API');
    assert.equal(dm.sender_screen_name, 'alice');
    assert.ok((await conversations(bob)).some((c) => c.last_status.id === mastodonDm.id));
    await deliveriesSettled(t);
    assert.equal(peer.received.length, before, 'nothing went to the other server');
  });
});
