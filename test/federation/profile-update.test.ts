import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer, type Received } from '../helpers/fedify-peer.js';
import { deliveriesSettled, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';

type Person = { id?: string; name?: string; summary?: string; icon?: { url?: string } | string; manuallyApprovesFollowers?: boolean };

/**
 * When alice changes what her actor shows (name, bio, photo, approving followers by hand), through
 * the Mastodon API or the microblog API the UI uses, her followers' server gets Update(Person)
 * with the new values, signed, once per server (its shared inbox); a server with no follower of
 * hers gets nothing, and a profile saved unchanged sends nothing.
 */
describe("a channel's profile changes reach its followers elsewhere", () => {
  let t: TestHub;
  let followers: FedifyPeer;
  let stranger: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;

  before(async () => {
    t = await startFederatingHub(['alice', 'bob']);
    followers = await FedifyPeer.start({ actors: ['ap1', 'ap2'] });
    stranger = await FedifyPeer.start({ actors: ['bp1'] });
    alice = mastodonClient(t, 'alice');
    for (const name of ['ap1', 'ap2']) {
      await followers.follow(name, aliceId());
      await followers.waitFor((r) => r.type === 'Accept' && r.actor === aliceId() && JSON.stringify(r.json).includes(followers.actorUri(name)));
    }
    // The stranger's server knows the hub (bp1 follows bob), but nobody there follows alice.
    await stranger.follow('bp1', `${t.url}/channel/bob`);
    await stranger.waitFor((r) => r.type === 'Accept');
  });
  after(async () => {
    await stranger.close();
    await followers.close();
    await t.stop();
  });

  const updates = (p: FedifyPeer) => p.received.filter((r) => r.type === 'Update' && r.actor === aliceId());
  const personOf = (r: Received) => r.json.object as Person;
  const iconOf = (p: Person) => (typeof p.icon === 'string' ? p.icon : p.icon?.url);
  const taken = new Set<Received>();
  /**
   * An Update(Person) of alice's that matches and no earlier step took (it may arrive before the
   * step that caused it has read the actor back); it came signed (the peer's Fedify verified it)
   * and once to the server.
   */
  const nextUpdate = async (what: string, match: (p: Person) => boolean) => {
    const r = await followers.waitFor((u) => u.type === 'Update' && u.actor === aliceId() && !taken.has(u) && match(personOf(u)));
    taken.add(r);
    assert.equal(personOf(r).id, aliceId(), what);
    const posts = followers.posts.filter((p) => p.id === r.id && p.status < 300);
    assert.equal(posts.length, 1, `${what}: delivered once to the server`);
    assert.equal(posts[0]!.path, '/inbox', `${what}: to its shared inbox`);
    assert.notEqual(posts[0]!.signature, 'none', `${what}: signed`);
    return personOf(r);
  };
  const actorDoc = async () => (await (await fetch(aliceId(), { headers: { accept: 'application/activity+json' } })).json()) as Person;

  it('Mastodon update_credentials: display name and bio', async () => {
    await alice.raw('/api/v1/accounts/update_credentials', { method: 'PATCH', json: { display_name: 'Alice Gardener', note: 'Grows beans & peas' } });
    const p = await nextUpdate('name and bio', (p) => p.name === 'Alice Gardener');
    assert.match(String(p.summary), /Grows beans &amp; peas/);
  });

  it('Mastodon update_credentials: a new avatar', async () => {
    const r = await alice.raw('/api/v1/accounts/update_credentials', { method: 'PATCH', body: form({}, { avatar: { data: await makeImage(300, 300, 'jpeg', '#3a3'), name: 'me.jpg', type: 'image/jpeg' } }) });
    assert.equal(r.status, 200, await r.text());
    const icon = iconOf(await actorDoc());
    assert.ok(icon);
    await nextUpdate('avatar', (p) => iconOf(p) === icon);
  });

  it('microblog API (as the UI saves Settings → Profile): name, description, then the profile image', async () => {
    const r = await call(t, '/api/account/update_profile.json', { as: 'alice', form: { name: 'Alice of the Allotment', description: 'Now with courgettes' } });
    assert.equal(r.status, 200, r.text);
    const p = await nextUpdate('update_profile', (p) => p.name === 'Alice of the Allotment');
    assert.match(String(p.summary), /Now with courgettes/);
    const before = iconOf(await actorDoc());
    const img = await call(t, '/api/account/update_profile_image.json', { as: 'alice', method: 'POST', body: form({}, { image: { data: await makeImage(200, 200, 'png', '#33c'), name: 'me.png' } }) });
    assert.equal(img.status, 200, img.text);
    const icon = iconOf(await actorDoc());
    assert.notEqual(icon, before);
    await nextUpdate('update_profile_image', (p) => iconOf(p) === icon);
  });

  it('approving followers by hand (Mastodon locked, microblog protected) is told as manuallyApprovesFollowers', async () => {
    await alice.raw('/api/v1/accounts/update_credentials', { method: 'PATCH', json: { locked: true } });
    await nextUpdate('locked', (p) => p.manuallyApprovesFollowers === true);
    const r = await call(t, '/api/account/settings.json', { as: 'alice', form: { protected: 'false' } });
    assert.equal(r.status, 200, r.text);
    await nextUpdate('protected=false', (p) => !p.manuallyApprovesFollowers);
  });

  it('a profile saved unchanged sends nothing; a server with no follower of hers never got any of it', async () => {
    await deliveriesSettled(t);
    const seen = updates(followers).length;
    await call(t, '/api/account/update_profile.json', { as: 'alice', form: { name: 'Alice of the Allotment', description: 'Now with courgettes' } });
    await alice.raw('/api/v1/accounts/update_credentials', { method: 'PATCH', json: { locked: false } });
    await deliveriesSettled(t);
    assert.equal(updates(followers).length, seen, 'nothing new to tell');
    assert.ok(seen >= 6, `every change was told: ${seen}`);
    assert.deepEqual(updates(stranger), []);
    assert.ok(!stranger.posts.some((p) => p.type === 'Update'), 'not even refused');
  });
});
