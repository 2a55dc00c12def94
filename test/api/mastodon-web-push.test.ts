import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRestAPIClient } from 'masto';
import { passwordToken, registerApp } from '../../server/services/oauth2.js';
import type { OAuth2AppRow } from '../../server/store/oauth2.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch } from '../helpers/mastodon.js';

// Web Push as Mastodon apps use it: an app subscribes its token with a push endpoint and the keys
// of a browser-like key pair; every new notification it wants reaches the endpoint encrypted for
// those keys (RFC 8291's aes128gcm, or the older aesgcm) and signed with the hub's VAPID key
// (RFC 8292). The push service here is a server on 127.0.0.1 that decrypts what it gets, so the
// hub runs with HEARTH_FEDERATION_INSECURE=1, as a test may; without it, such endpoints are refused.

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let t: TestHub;
let app: OAuth2AppRow;
let push: Server;
let pushUrl: string;
const received: Received[] = [];
/** The status the push service answers on a path (201 elsewhere). */
const answers = new Map<string, number>();
const ids: Record<string, string> = {};
const INSECURE = 'HEARTH_FEDERATION_INSECURE';

function insecure(on: boolean): void {
  if (on) process.env[INSECURE] = '1';
  else delete process.env[INSECURE];
}

before(async () => {
  insecure(true);
  t = await startHub({ channels: ['alice'] });
  for (const nick of ['bob', 'carol', 'dave']) await t.addChannel(nick);
  app = registerApp(t.hub.db, { name: 'phone app', redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: 'read write follow push', website: '' });
  for (const nick of ['alice', 'bob', 'carol', 'dave']) ids[nick] = (await json<{ id: string }>(api(token(nick))('/api/v1/accounts/verify_credentials'))).id;
  push = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers.get(path) ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => push.listen(0, '127.0.0.1', resolve));
  pushUrl = `http://127.0.0.1:${(push.address() as AddressInfo).port}`;
});
after(async () => {
  await t.stop();
  await new Promise((resolve) => push.close(resolve));
  insecure(false);
});

function token(nick: string, scope = 'read write follow push'): string {
  return passwordToken(t.hub.db, app, t.channels[nick]!, scope).token;
}

const api = (tok: string) => bearerFetch(t, tok);

async function json<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  assert.equal(r.status, status, text);
  return JSON.parse(text) as T;
}

/** A browser's subscription keys: a P-256 key pair and a 16-byte secret. */
interface Device {
  ecdh: ECDH;
  auth: Buffer;
  keys: { p256dh: string; auth: string };
}
function device(): Device {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

interface Subscription {
  id: number;
  endpoint: string;
  standard: boolean;
  alerts: Record<string, boolean>;
  server_key: string;
  policy: string;
}

async function subscribe(tok: string, path: string, dev: Device, data: { alerts: Record<string, boolean>; policy?: string }, standard = true): Promise<Subscription> {
  return json<Subscription>(api(tok)('/api/v1/push/subscription', { method: 'POST', json: { subscription: { endpoint: pushUrl + path, keys: dev.keys, standard }, data } }));
}

const hkdfExtract = (salt: Buffer, ikm: Buffer) => createHmac('sha256', salt).update(ikm).digest();
const hkdfExpand = (prk: Buffer, info: Buffer, length: number) => createHmac('sha256', prk).update(Buffer.concat([info, Buffer.from([1])])).digest().subarray(0, length);

function gcmOpen(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer {
  const d = createDecipheriv('aes-128-gcm', key, nonce);
  d.setAuthTag(sealed.subarray(-16));
  return Buffer.concat([d.update(sealed.subarray(0, -16)), d.final()]);
}

/** RFC 8291 (with RFC 8188's aes128gcm record): the header carries salt, record size and the sender's key. */
function decryptAes128gcm(body: Buffer, dev: Device): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const senderKey = body.subarray(21, 21 + body[20]!);
  const sealed = body.subarray(21 + body[20]!);
  assert.ok(sealed.length <= recordSize, 'one record');
  const ikm = hkdfExpand(hkdfExtract(dev.auth, dev.ecdh.computeSecret(senderKey)), Buffer.concat([Buffer.from('WebPush: info\0'), dev.ecdh.getPublicKey(), senderKey]), 32);
  const prk = hkdfExtract(salt, ikm);
  const plain = gcmOpen(hkdfExpand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16), hkdfExpand(prk, Buffer.from('Content-Encoding: nonce\0'), 12), sealed);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  assert.equal(plain[end], 2, 'the last record ends with its delimiter');
  return plain.subarray(0, end);
}

/** A parameter of the Encryption or Crypto-Key header. */
function headerParam(value: string | string[] | undefined, name: string): string | undefined {
  for (const part of String(value ?? '').split(/[;,]/)) {
    const [k, v] = part.trim().split('=');
    if (k === name) return v;
  }
  return undefined;
}

/** The aesgcm of the drafts before RFC 8291 (salt and sender key in headers), which Mastodon's apps decrypt. */
function decryptAesgcm(r: Received, dev: Device): Buffer {
  const salt = Buffer.from(headerParam(r.headers.encryption, 'salt')!, 'base64url');
  const senderKey = Buffer.from(headerParam(r.headers['crypto-key'], 'dh')!, 'base64url');
  const ikm = hkdfExpand(hkdfExtract(dev.auth, dev.ecdh.computeSecret(senderKey)), Buffer.from('Content-Encoding: auth\0'), 32);
  const prk = hkdfExtract(salt, ikm);
  const withLength = (k: Buffer) => Buffer.concat([Buffer.from([0, k.length]), k]);
  const context = Buffer.concat([Buffer.from('P-256\0'), withLength(dev.ecdh.getPublicKey()), withLength(senderKey)]);
  const plain = gcmOpen(hkdfExpand(prk, Buffer.concat([Buffer.from('Content-Encoding: aesgcm\0'), context]), 16), hkdfExpand(prk, Buffer.concat([Buffer.from('Content-Encoding: nonce\0'), context]), 12), r.body);
  return plain.subarray(2 + plain.readUInt16BE(0));
}

/** Checks the VAPID signature (ES256 JWT) against the key the hub advertises; the claims it makes. */
function checkVapid(r: Received, serverKey: string): void {
  const auth = String(r.headers.authorization ?? '');
  let jwt: string;
  let key: string;
  if (r.headers['content-encoding'] === 'aes128gcm') {
    const m = /^vapid t=([^,\s]+),\s*k=(\S+)$/.exec(auth);
    assert.ok(m, auth);
    [jwt, key] = [m[1]!, m[2]!];
  } else {
    const m = /^WebPush (\S+)$/.exec(auth);
    assert.ok(m, auth);
    jwt = m[1]!;
    key = headerParam(r.headers['crypto-key'], 'p256ecdsa')!;
  }
  assert.equal(key, serverKey, 'signed with the advertised key');
  const point = Buffer.from(serverKey, 'base64url');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  assert.ok(verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url')), 'the JWT signature holds');
  assert.equal(JSON.parse(Buffer.from(header, 'base64url').toString()).alg, 'ES256');
  const c = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  assert.equal(c.aud, pushUrl);
  const now = Date.now() / 1000;
  assert.ok(c.exp > now && c.exp <= now + 24 * 3600 + 60, `exp ${c.exp}`);
  assert.match(c.sub, /^(mailto:|https:)/);
}

interface Payload {
  access_token: string;
  preferred_locale: string;
  notification_id: number;
  notification_type: string;
  icon: string;
  title: string;
  body: string;
}

async function waitFor<T>(what: string, find: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = find();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const at = (path: string) => received.filter((r) => r.path === path);
/** Time for a push that should not come to have come, had it been sent. */
const settle = () => new Promise((r) => setTimeout(r, 500));

async function mention(nick: string, text: string): Promise<string> {
  const s = await json<{ id: string }>(api(token(nick))('/api/v1/statuses', { method: 'POST', json: { status: `@alice ${text}` } }));
  const notes = await json<{ id: string; status?: { id: string } }[]>(api(token('alice'))('/api/v1/notifications?types[]=mention'));
  return notes.find((n) => n.status?.id === s.id)!.id;
}

test('the hub advertises one VAPID key; a token subscribes, reads, changes and deletes its subscription', async () => {
  const instance = await json<{ configuration: { vapid: { public_key: string } } }>(fetch(`${t.url}/api/v2/instance`));
  const key = instance.configuration.vapid.public_key;
  assert.equal(Buffer.from(key, 'base64url').length, 65);
  const registered = await json<{ vapid_key: string }>(fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'x', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob' }) }));
  assert.equal(registered.vapid_key, key);
  const tok = token('alice');
  const me = api(tok);
  assert.equal((await json<{ vapid_key: string }>(me('/api/v1/apps/verify_credentials'))).vapid_key, key);
  assert.equal((await me('/api/v1/push/subscription')).status, 404);
  const dev = device();
  const made = await subscribe(tok, '/crud', dev, { alerts: { mention: true, favourite: true }, policy: 'followed' });
  assert.equal(typeof made.id, 'number');
  assert.equal(made.endpoint, `${pushUrl}/crud`);
  assert.equal(made.standard, true);
  assert.equal(made.server_key, key);
  assert.equal(made.policy, 'followed');
  assert.deepEqual(made.alerts, { mention: true, status: false, reblog: false, follow: false, follow_request: false, favourite: true, poll: false, update: false });
  assert.deepEqual(await json(me('/api/v1/push/subscription')), made);
  // PUT replaces the alerts and the policy; what it leaves out is off, and 'all'.
  const changed = await json<Subscription>(me('/api/v1/push/subscription', { method: 'PUT', json: { data: { alerts: { follow: true, reblog: 'true' } } } }));
  assert.deepEqual(Object.entries(changed.alerts).filter(([, v]) => v).map(([k]) => k).sort(), ['follow', 'reblog']);
  assert.equal(changed.policy, 'all');
  assert.equal(changed.id, made.id);
  // Subscribing again replaces it: one subscription per token. Forms with bracketed names do too.
  const form = new URLSearchParams({ 'subscription[endpoint]': `${pushUrl}/crud2`, 'subscription[keys][p256dh]': dev.keys.p256dh, 'subscription[keys][auth]': dev.keys.auth, 'data[alerts][mention]': 'true', 'data[policy]': 'none' });
  const again = await json<Subscription>(me('/api/v1/push/subscription', { method: 'POST', body: form }));
  assert.notEqual(again.id, made.id);
  assert.equal(again.standard, false, 'aesgcm unless the app asks for the standard');
  assert.equal(again.policy, 'none');
  assert.equal(again.alerts.mention, true);
  assert.deepEqual(await json(me('/api/v1/push/subscription')), again);
  // Another token of the same channel has its own (none yet).
  assert.equal((await api(token('alice'))('/api/v1/push/subscription')).status, 404);
  // masto.js reads it as apps built on it do.
  const masto = createRestAPIClient({ url: t.url, accessToken: tok });
  const fetched = await masto.v1.push.subscription.fetch();
  assert.equal(fetched.serverKey, key);
  assert.deepEqual(await json(me('/api/v1/push/subscription', { method: 'DELETE' })), {});
  assert.equal((await me('/api/v1/push/subscription')).status, 404);
  assert.equal((await me('/api/v1/push/subscription', { method: 'PUT', json: { data: { alerts: { mention: true } } } })).status, 404);
  assert.deepEqual(await json(me('/api/v1/push/subscription', { method: 'DELETE' })), {});
});

test('a subscription that cannot work is refused with 422', async () => {
  const me = api(token('alice'));
  const dev = device();
  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
  const cases: [string, unknown][] = [
    ['no endpoint', { subscription: { keys: dev.keys } }],
    ['not a URL', { subscription: { endpoint: 'push here', keys: dev.keys } }],
    ['ftp', { subscription: { endpoint: 'ftp://127.0.0.1/x', keys: dev.keys } }],
    ['no keys', { subscription: { endpoint: `${pushUrl}/x` } }],
    ['key off the curve', { subscription: { endpoint: `${pushUrl}/x`, keys: { ...dev.keys, p256dh: offCurve } } }],
    ['short auth', { subscription: { endpoint: `${pushUrl}/x`, keys: { ...dev.keys, auth: randomBytes(8).toString('base64url') } } }],
    ['unknown policy', { subscription: { endpoint: `${pushUrl}/x`, keys: dev.keys }, data: { policy: 'friends' } }],
  ];
  for (const [what, body] of cases) assert.equal((await me('/api/v1/push/subscription', { method: 'POST', json: body })).status, 422, what);
  assert.equal((await me('/api/v1/push/subscription')).status, 404, 'nothing was stored');
});

test('without the insecure setting, endpoints on loopback, private or link-local addresses, and http ones, are refused', async () => {
  insecure(false);
  try {
    const me = api(token('alice'));
    const dev = device();
    for (const endpoint of [
      'https://127.0.0.1/push', 'https://127.8.9.10:8443/push', 'https://localhost/push', 'https://push.localhost/x', 'https://[::1]/push', 'https://[::ffff:127.0.0.1]/push',
      'https://10.1.2.3/push', 'https://172.20.0.5/push', 'https://192.168.1.20/push', 'https://169.254.169.254/latest', 'https://[fd12:3456::1]/push',
      'https://[fe80::1]/push', 'https://0.0.0.0/push', 'https://100.64.0.1/push', `${pushUrl}/push`, 'http://push.example.com/push',
    ]) {
      const res = await me('/api/v1/push/subscription', { method: 'POST', json: { subscription: { endpoint, keys: dev.keys }, data: { alerts: { mention: true } } } });
      assert.equal(res.status, 422, `${endpoint}: ${await res.text()}`);
    }
  } finally {
    insecure(true);
  }
});

test('each notification the subscription alerts for arrives encrypted for its keys (aes128gcm and aesgcm) and signed with the VAPID key', async () => {
  const key = (await json<{ configuration: { vapid: { public_key: string } } }>(fetch(`${t.url}/api/v2/instance`))).configuration.vapid.public_key;
  const standardToken = token('alice');
  const legacyToken = token('alice');
  const standardDevice = device();
  const legacyDevice = device();
  await subscribe(standardToken, '/standard', standardDevice, { alerts: { mention: true, favourite: true } });
  await subscribe(legacyToken, '/legacy', legacyDevice, { alerts: { mention: true } }, false);
  const noteId = await mention('bob', 'are you there? https://example.com/x & more #news');
  const [standard, legacy] = await Promise.all([waitFor('the standard push', () => at('/standard')[0]), waitFor('the legacy push', () => at('/legacy')[0])]);
  assert.equal(standard.headers['content-encoding'], 'aes128gcm');
  assert.equal(legacy.headers['content-encoding'], 'aesgcm');
  for (const r of [standard, legacy]) {
    checkVapid(r, key);
    assert.equal(r.headers['content-type'], 'application/octet-stream');
    assert.ok(Number(r.headers.ttl) > 0);
  }
  const fromStandard = JSON.parse(decryptAes128gcm(standard.body, standardDevice).toString()) as Payload;
  const fromLegacy = JSON.parse(decryptAesgcm(legacy, legacyDevice).toString()) as Payload;
  assert.equal(fromStandard.access_token, standardToken, 'the token of the subscription, for the app to know the account');
  assert.equal(fromLegacy.access_token, legacyToken);
  for (const p of [fromStandard, fromLegacy]) {
    assert.equal(String(p.notification_id), noteId);
    assert.equal(p.notification_type, 'mention');
    assert.equal(p.preferred_locale, 'en');
    assert.match(p.title, /Bob/);
    assert.match(p.body, /^@alice are you there\? https:\/\/example\.com\/x & more #news$/);
    assert.match(p.icon, /^http/);
  }
  // The key of one device does not open what was sent to the other.
  assert.throws(() => decryptAes128gcm(standard.body, device()));
  // A favourite: the standard subscription alerts for it, the legacy one does not.
  const post = await json<{ id: string }>(api(token('alice'))('/api/v1/statuses', { method: 'POST', json: { status: 'like this' } }));
  await json(api(token('bob'))(`/api/v1/accounts/${ids.alice}/follow`, { method: 'POST' }));
  await json(api(token('bob'))(`/api/v1/statuses/${post.id}/favourite`, { method: 'POST' }));
  const fav = await waitFor('the favourite', () => at('/standard').find((r) => (JSON.parse(decryptAes128gcm(r.body, standardDevice).toString()) as Payload).notification_type === 'favourite'));
  assert.ok(fav);
  await settle();
  assert.equal(at('/legacy').length, 1, 'the legacy subscription got the mention only');
  assert.ok(at('/standard').every((r) => ['mention', 'favourite'].includes((JSON.parse(decryptAes128gcm(r.body, standardDevice).toString()) as Payload).notification_type)), 'no follow: not alerted');
});

test('the policy picks whose notifications are sent: all, those alice follows, her followers, none', async () => {
  // alice follows carol; dave follows alice.
  await json(api(token('alice'))(`/api/v1/accounts/${ids.carol}/follow`, { method: 'POST' }));
  await json(api(token('dave'))(`/api/v1/accounts/${ids.alice}/follow`, { method: 'POST' }));
  const devices: Record<string, Device> = {};
  for (const policy of ['all', 'followed', 'follower', 'none']) {
    devices[policy] = device();
    await subscribe(token('alice'), `/policy-${policy}`, devices[policy]!, { alerts: { mention: true }, policy });
  }
  const byCarol = await mention('carol', 'from someone alice follows');
  const byDave = await mention('dave', 'from a follower');
  const sent = (policy: string) => at(`/policy-${policy}`).map((r) => String((JSON.parse(decryptAes128gcm(r.body, devices[policy]!).toString()) as Payload).notification_id));
  await waitFor('all of them', () => sent('all').length === 2 || undefined);
  await waitFor('the followed one', () => sent('followed').length === 1 || undefined);
  await waitFor('the follower', () => sent('follower').length === 1 || undefined);
  await settle();
  assert.deepEqual(sent('all').sort(), [byCarol, byDave].sort());
  assert.deepEqual(sent('followed'), [byCarol]);
  assert.deepEqual(sent('follower'), [byDave]);
  assert.deepEqual(sent('none'), []);
});

test('a subscription the push service says is gone (410) is deleted; so is a revoked token\'s', async () => {
  answers.set('/gone', 410);
  const goneToken = token('alice');
  await subscribe(goneToken, '/gone', device(), { alerts: { mention: true } });
  const revokedToken = token('alice');
  await subscribe(revokedToken, '/revoked', device(), { alerts: { mention: true } });
  await json(fetch(`${t.url}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token: revokedToken }) }));
  const markerDevice = device();
  await subscribe(token('alice'), '/marker', markerDevice, { alerts: { mention: true } });
  await mention('bob', 'first');
  await waitFor('the push to the gone endpoint', () => at('/gone')[0]);
  const end = Date.now() + 10_000;
  while ((await api(goneToken)('/api/v1/push/subscription')).status !== 404) {
    assert.ok(Date.now() < end, 'the subscription went');
    await new Promise((r) => setTimeout(r, 20));
  }
  await mention('bob', 'second');
  await waitFor('the second marker push', () => at('/marker').length === 2 || undefined);
  await settle();
  assert.equal(at('/gone').length, 1, 'nothing more to a gone endpoint');
  assert.equal(at('/revoked').length, 0, 'nothing for a revoked token');
});

test('an endpoint that became private is not sent to once the insecure setting is off', async () => {
  await subscribe(token('alice'), '/later-private', device(), { alerts: { mention: true } });
  insecure(false);
  try {
    await mention('bob', 'not to loopback');
    await settle();
    await settle();
    assert.equal(at('/later-private').length, 0);
  } finally {
    insecure(true);
  }
});

test('only a token with the push scope may touch subscriptions', async () => {
  const noPush = api(token('alice', 'read write follow'));
  const dev = device();
  for (const [method, body] of [['POST', { subscription: { endpoint: `${pushUrl}/x`, keys: dev.keys } }], ['GET'], ['PUT', { data: { alerts: { mention: true } } }], ['DELETE']] as const) {
    const res = await noPush('/api/v1/push/subscription', { method, json: body });
    assert.equal(res.status, 403, method);
  }
  // Nor without a token at all.
  assert.equal((await t.request('/api/v1/push/subscription', { as: 'alice' })).status, 401);
  assert.equal((await fetch(`${t.url}/api/v1/push/subscription`)).status, 401);
});
