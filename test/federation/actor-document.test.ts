import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { mastodonClient, startFederatingHub } from '../helpers/federation.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { insertImport } from '../../server/store/channel-import.js';
import { getChannelByNick } from '../../server/store/channels.js';
import type { Logger } from '../../server/hub.js';

const AP = { accept: 'application/activity+json' };

async function actorJson(base: string, nick: string): Promise<Record<string, any>> {
  const r = await fetch(`${base}/channel/${nick}`, { headers: AP });
  assert.equal(r.status, 200);
  return (await r.json()) as Record<string, any>;
}

describe("a channel's actor document shows what other servers show of a person", () => {
  let t: TestHub;
  let peer: FedifyPeer;
  before(async () => {
    t = await startFederatingHub(['alice', 'bob', 'carol']);
    peer = await FedifyPeer.start();
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  it('summary: the bio as the apps show it, as HTML with the text escaped', async () => {
    await mastodonClient(t, 'alice').raw('/api/v1/accounts/update_credentials', { method: 'PATCH', json: { note: 'Gardener <b>not bold</b> & baker\n\nSecond paragraph' } });
    const doc = await actorJson(t.url, 'alice');
    assert.equal(doc.summary, '<p>Gardener &lt;b&gt;not bold&lt;/b&gt; &amp; baker</p><p>Second paragraph</p>');
    const person = await peer.lookupActor(`${t.url}/channel/alice`);
    assert.equal(String(person.summary), doc.summary);
  });

  it('icon: the profile photo at an absolute URL of the hub, served as the type it says', async () => {
    const photo = await makeImage(400, 300, 'jpeg');
    const up = await mastodonClient(t, 'bob').raw('/api/v1/accounts/update_credentials', { method: 'PATCH', body: form({}, { avatar: { data: photo, name: 'me.jpg', type: 'image/jpeg' } }) });
    assert.equal(up.status, 200, await up.text());
    for (const nick of ['bob', 'carol']) {
      // bob has a photo; carol has none and still gets a picture (the default avatar)
      const doc = await actorJson(t.url, nick);
      assert.equal(doc.icon?.type, 'Image');
      const url = new URL(doc.icon.url);
      assert.equal(url.origin, t.url, nick);
      const r = await fetch(url);
      assert.equal(r.status, 200, nick);
      assert.equal(r.headers.get('content-type'), doc.icon.mediaType, nick);
      assert.ok((await r.arrayBuffer()).byteLength > 0);
    }
  });

  it('url, published, manuallyApprovesFollowers, discoverable', async () => {
    const doc = await actorJson(t.url, 'carol');
    assert.equal(doc.url, `${t.url}/channel/carol`);
    assert.match(doc.published, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(Math.abs(Date.parse(doc.published) - Date.now()) < 3600_000, doc.published);
    assert.equal(doc.manuallyApprovesFollowers, false);
    assert.equal(doc.discoverable, true);
    // A page for people at url: a browser gets the app there.
    const page = await fetch(doc.url, { headers: { accept: 'text/html' } });
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  });

  it('alsoKnownAs names the actor of the hub a channel was moved from; a channel never moved names none', async () => {
    insertImport(t.hub.db, { channel_id: t.channels.carol!.channel_id, source_url: 'https://old-hub.example.org/', source_nick: 'carol_old', source_hash: 'carol-old-hash', source_guid: 'carol-old-guid', source_address: 'carol_old@old-hub.example.org' });
    const doc = await actorJson(t.url, 'carol');
    assert.deepEqual([doc.alsoKnownAs].flat(), ['https://old-hub.example.org/channel/carol_old']);
    const person = await peer.lookupActor(`${t.url}/channel/carol`);
    assert.deepEqual(person.aliasIds.map((u) => u.href), ['https://old-hub.example.org/channel/carol_old']);
    assert.equal((await actorJson(t.url, 'alice')).alsoKnownAs, undefined);
  });

  it('featured: the public posts the channel pinned, as Mastodon shows them on a profile', async () => {
    const alice = mastodonClient(t, 'alice');
    const pinned = await alice.post<{ id: string; uri: string }>('/api/v1/statuses', { status: 'Pinned and public', visibility: 'public' });
    const secret = await alice.post<{ id: string; uri: string }>('/api/v1/statuses', { status: 'Pinned, for followers only', visibility: 'private' });
    await alice.post('/api/v1/statuses', { status: 'Public, not pinned', visibility: 'public' });
    await alice.post(`/api/v1/statuses/${pinned.id}/pin`);
    await alice.post(`/api/v1/statuses/${secret.id}/pin`);
    const doc = await actorJson(t.url, 'alice');
    assert.equal(doc.featured, `${t.url}/channel/alice/featured`);
    const r = await fetch(doc.featured, { headers: AP });
    assert.equal(r.status, 200);
    const featured = (await r.json()) as { type: string; totalItems: number; orderedItems: { id: string; content: string }[] };
    assert.equal(featured.type, 'OrderedCollection');
    assert.deepEqual(featured.orderedItems.map((n) => n.id), [pinned.uri]);
    assert.equal((await fetch(`${t.url}/channel/nobody/featured`, { headers: AP })).status, 404);
  });
});

describe("a channel's actor id never changes", () => {
  let dataDir: string;
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('started again on another port and with another --base-url, the hub keeps every actor id and address, and says so in its log', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-fed-restart-'));
    const first = await startFederatingHub(['alice'], { dataDir });
    const before = await actorJson(first.url, 'alice');
    const host = new URL(first.url).host;
    await first.stop();

    const warnings: string[] = [];
    const log: Logger = { info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const again = await startHub({ dataDir, options: { baseUrl: 'https://elsewhere.example.org', log } });
    try {
      const port = String(again.hub.port);
      assert.notEqual(port, new URL(first.url).port);
      again.channels.alice = getChannelByNick(again.hub.db, 'alice')!;
      assert.equal(again.hub.baseUrl, first.url);
      const listening = `http://127.0.0.1:${port}`;
      const after = await actorJson(listening, 'alice');
      for (const k of ['id', 'inbox', 'outbox', 'followers', 'following', 'url']) assert.equal(after[k], before[k], k);
      assert.equal(after.endpoints.sharedInbox, before.endpoints.sharedInbox);
      assert.equal(after.publicKey.id, before.publicKey.id);
      assert.equal(after.publicKey.publicKeyPem, before.publicKey.publicKeyPem);
      assert.equal(new URL(after.icon.url).origin, first.url);
      const jrd = (await (await fetch(`${listening}/.well-known/webfinger?resource=${encodeURIComponent(`acct:alice@${host}`)}`)).json()) as { subject: string; links: { rel: string; href?: string }[] };
      assert.equal(jrd.subject, `acct:alice@${host}`);
      assert.equal(jrd.links.find((l) => l.rel === 'self')?.href, before.id);
      const me = await mastodonClient({ ...again, url: listening }, 'alice').get<{ url: string; acct: string }>('/api/v1/accounts/verify_credentials');
      assert.equal(me.url, before.id);
      assert.ok(warnings.some((w) => w.includes(first.url) && w.includes('https://elsewhere.example.org')), warnings.join('\n'));
    } finally {
      await again.stop();
    }
  });
});
