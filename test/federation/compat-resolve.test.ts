import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type User = { id: number; screen_name: string; name: string; following: boolean; follow_request_sent: boolean; statusnet_profile_url: string };

/**
 * What the UI's search box and Connect form use (the microblog API, as the owner's browser calls
 * it): someone elsewhere found by address or actor URL and followed, and this hub's own people
 * never taken for someone elsewhere.
 */
describe('finding and following people elsewhere through the microblog API', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  before(async () => {
    // A channel here is called ap2 too: the peer's ap2 must never be taken for it.
    t = await startFederatingHub(['alice', 'ap2']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3'] });
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const call = async <T>(path: string, init: { as?: string; method?: string; body?: Record<string, string> } = {}): Promise<{ status: number; json: T }> => {
    const res = await t.request(path, { as: init.as, method: init.method ?? 'GET', body: init.body && new URLSearchParams(init.body) });
    return { status: res.status, json: (await res.json()) as T };
  };
  const search = (q: string, as: string | null = 'alice', resolve = true) => call<User[]>(`/api/users/search.json?q=${encodeURIComponent(q)}${resolve ? '&resolve=true' : ''}`, { as: as ?? undefined });

  it('users/search?resolve=true finds someone elsewhere by user@host, @user@host and actor URL; they go by their address', async () => {
    for (const q of [peer.address('ap1'), `@${peer.address('ap1')}`, peer.actorUri('ap1')]) {
      const found = await search(q);
      assert.equal(found.status, 200, q);
      assert.equal(found.json[0]?.screen_name, peer.address('ap1'), `${q}: ${JSON.stringify(found.json.map((u) => u.screen_name))}`);
      assert.equal(found.json[0]?.statusnet_profile_url, peer.actorUri('ap1'));
    }
    const shown = await call<User>(`/api/users/show.json?screen_name=${encodeURIComponent(peer.address('ap1'))}`, { as: 'alice' });
    assert.equal(shown.json.screen_name, peer.address('ap1'));
  });

  it('without resolve, or for an anonymous caller, nobody is looked up elsewhere', async () => {
    assert.deepEqual((await search(peer.address('ap3'), 'alice', false)).json, []);
    assert.deepEqual((await search(peer.address('ap3'), null)).json, [], 'anonymous');
    assert.deepEqual((await search(peer.address('ap3'))).json.map((u) => u.screen_name), [peer.address('ap3')], 'alice may');
  });

  it("ap2@peer is not this hub's ap2, and friendships/create with an address not known yet follows them there", async () => {
    // Looked up on its server for a signed-in caller: the remote ap2, never this hub's ap2.
    const shown = await call<User>(`/api/users/show.json?screen_name=${encodeURIComponent(peer.address('ap2'))}`, { as: 'alice' });
    assert.equal(shown.json.screen_name, peer.address('ap2'));
    assert.equal(shown.json.statusnet_profile_url, peer.actorUri('ap2'));
    const followed = await call<User>('/api/friendships/create.json', { as: 'alice', method: 'POST', body: { screen_name: peer.address('ap2') } });
    assert.equal(followed.status, 200);
    assert.equal(followed.json.screen_name, peer.address('ap2'));
    assert.equal(followed.json.statusnet_profile_url, peer.actorUri('ap2'));
    await peer.waitFor((r) => r.type === 'Follow' && r.actor === `${t.url}/channel/alice` && r.json.object === peer.actorUri('ap2'));
    const local = await call<User>('/api/users/show.json?screen_name=ap2', { as: 'alice' });
    assert.equal(local.json.following, false, "alice did not follow this hub's ap2");
    assert.equal(local.json.screen_name, 'ap2');
  });

  it("this hub's own people, by address or URL, are this hub's channels: never a second identity fetched as if elsewhere", async () => {
    const host = new URL(t.url).host;
    for (const q of [`alice@${host}`, `@alice@${host}`, `${t.url}/channel/alice`]) {
      assert.deepEqual((await search(q)).json.map((u) => u.screen_name), ['alice'], q);
      const m = await mastodonClient(t, 'ap2').get<{ accounts: { acct: string }[] }>(`/api/v2/search?q=${encodeURIComponent(q)}&resolve=true&type=accounts`);
      assert.deepEqual(m.accounts.map((a) => a.acct), ['alice'], `Mastodon search: ${q}`);
    }
  });

  it('friendships/show says when someone elsewhere follows the channel (the profile\'s "Follows you")', async () => {
    await peer.follow('ap1', `${t.url}/channel/alice`);
    await peer.waitFor((r) => r.type === 'Accept' && r.actor === `${t.url}/channel/alice`);
    type Source = { following: boolean; followed_by: boolean; following_requested: boolean };
    const rel = await call<{ relationship: { source: Source } }>(`/api/friendships/show.json?target_screen_name=${encodeURIComponent(peer.address('ap1'))}`, { as: 'alice' });
    assert.equal(rel.status, 200);
    assert.deepEqual([rel.json.relationship.source.followed_by, rel.json.relationship.source.following], [true, false]);
  });
});
