import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { makeImage } from '../helpers/media.js';

type Account = { id: string; acct: string; avatar: string; avatar_static: string };

/** The picture at a URL: its type, size and the colour of its middle. */
async function picture(url: string) {
  const r = await fetch(url);
  assert.equal(r.status, 200, url);
  const bytes = Buffer.from(await r.arrayBuffer());
  const img = sharp(bytes);
  const meta = await img.metadata();
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  return { type: r.headers.get('content-type'), width: meta.width, height: meta.height, middle: at(info.width >> 1, info.height >> 1), corner: at(0, 0) };
}

const near = (rgb: number[], want: number[]) => rgb.every((c, k) => Math.abs(c - want[k]!) < 12);
/** The background of a default avatar (server/web/avatar.ts): a hub's own picture, no one's photo. */
const DEFAULT_BACKGROUND = [240, 236, 230];

describe("remote actors' avatars are copied to the hub, with a size cap, and served from there", () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3', 'ap4'] });
    alice = mastodonClient(t, 'alice');
    peer.setProfile('ap1', { icon: { url: peer.serveFile('/media/red.png', await makeImage(400, 400, 'png', '#d00000'), 'image/png'), mediaType: 'image/png' } });
    peer.setProfile('ap2', { icon: { url: peer.serveFile('/media/huge.png', randomBytes(3 * 1024 * 1024), 'image/png'), mediaType: 'image/png' } });
    peer.setProfile('ap3', { icon: { url: peer.serveFile('/media/page.png', Buffer.from('<html><body>not a picture</body></html>'), 'text/html'), mediaType: 'image/png' } });
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const find = async (name: string) => {
    const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address(name))}&resolve=true&type=accounts`);
    const a = found.accounts.find((x) => x.acct === peer.address(name));
    assert.ok(a, name);
    return a;
  };
  const account = (id: string) => alice.get<Account>(`/api/v1/accounts/${id}`);

  it("an actor's icon is fetched once, resized, and served at an address of the hub", async () => {
    const { id } = await find('ap1');
    const a = await eventually('the copy shown', async () => {
      const now = await account(id);
      return now.avatar.includes('v=default') ? undefined : now;
    });
    assert.ok(a.avatar.startsWith(`${t.url}/photo/remote/`), a.avatar);
    assert.equal(a.avatar_static, a.avatar);
    const p = await picture(a.avatar);
    assert.equal(p.type, 'image/png');
    assert.deepEqual([p.width, p.height], [300, 300]);
    assert.ok(near(p.middle, [0xd0, 0, 0]), `red: ${p.middle}`);
    // Clients read the hub's copy: the other server is not asked again.
    for (let k = 0; k < 3; k++) await picture(a.avatar);
    assert.equal(peer.fileHits('/media/red.png'), 1);
    // The small size is there too.
    const small = await picture(a.avatar.replace('/remote/l/', '/remote/s/'));
    assert.deepEqual([small.width, small.height], [48, 48]);
  });

  it('a new icon (Update of the actor) replaces the copy, at a new address', async () => {
    const { id } = await find('ap1');
    const before = (await account(id)).avatar;
    peer.setProfile('ap1', { icon: { url: peer.serveFile('/media/blue.jpg', await makeImage(500, 300, 'jpeg', '#0000d0'), 'image/jpeg'), mediaType: 'image/jpeg' } });
    await peer.sendProfileUpdate('ap1', [`${t.url}/channel/alice`]);
    const after = await eventually('the new copy shown', async () => {
      const now = (await account(id)).avatar;
      return now !== before && !now.includes('v=default') ? now : undefined;
    });
    const p = await picture(after);
    assert.equal(p.type, 'image/jpeg');
    assert.deepEqual([p.width, p.height], [300, 300]);
    assert.ok(near(p.middle, [0, 0, 0xd0]), `blue: ${p.middle}`);
    assert.equal(peer.fileHits('/media/blue.jpg'), 1);
  });

  it('an icon over 2 MB, one that is no picture, and none at all: a default avatar of the hub', async () => {
    for (const name of ['ap2', 'ap3', 'ap4']) {
      const { id } = await find(name);
      if (name !== 'ap4') await eventually(`${name}'s icon fetched`, () => peer.fileHits(name === 'ap2' ? '/media/huge.png' : '/media/page.png') > 0);
      // Looked at once more after the fetch: still the default.
      await new Promise((r) => setTimeout(r, 300));
      const a = await account(id);
      assert.ok(a.avatar.startsWith(`${t.url}/photo/remote/l/`) && a.avatar.includes('v=default'), `${name}: ${a.avatar}`);
      const p = await picture(a.avatar);
      assert.equal(p.type, 'image/png');
      assert.deepEqual([p.width, p.height], [300, 300]);
      assert.ok(near(p.corner, DEFAULT_BACKGROUND), `${name}: ${p.corner}`);
    }
  });

  it("a deleted account's copy goes: its address shows a default avatar", async () => {
    const { id } = await find('ap1');
    const copy = (await account(id)).avatar;
    assert.ok(!near((await picture(copy)).corner, DEFAULT_BACKGROUND));
    await peer.deleteActor('ap1', [`${t.url}/channel/alice`]);
    await eventually('the copy gone', async () => near((await picture(copy)).corner, DEFAULT_BACKGROUND));
  });

  it("an address that is no remote actor's avatar is 404", async () => {
    const me = await alice.get<Account>('/api/v1/accounts/verify_credentials');
    const { id } = await find('ap4');
    for (const path of ['/photo/remote/l/999999', `/photo/remote/x/${id}`, '/photo/remote/l/abc', `/photo/remote/l/${me.id}`]) {
      const r = await fetch(`${t.url}${path}`);
      assert.equal(r.status, 404, path);
    }
  });
});
