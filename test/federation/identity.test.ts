import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { startFederatingHub } from '../helpers/federation.js';
import { startHub, type TestHub } from '../helpers/hub.js';

const run = promisify(execFile);
const AP = { accept: 'application/activity+json' };

describe('a federating channel is an ActivityPub actor that other servers find', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  before(async () => {
    t = await startFederatingHub(['alice', 'bob']);
    peer = await FedifyPeer.start();
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  it('WebFinger finds acct:nick@host:port and the actor URL, and nothing else', async () => {
    const host = new URL(t.url).host;
    for (const resource of [`acct:alice@${host}`, `${t.url}/channel/alice`]) {
      const r = await fetch(`${t.url}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
      assert.equal(r.status, 200, resource);
      const jrd = (await r.json()) as { subject: string; links: { rel: string; type?: string; href?: string }[] };
      const self = jrd.links.find((l) => l.rel === 'self');
      assert.equal(self?.href, `${t.url}/channel/alice`);
      assert.equal(self?.type, 'application/activity+json');
    }
    for (const resource of [`acct:nobody@${host}`, `acct:alice@elsewhere.example`, 'not a resource']) {
      const r = await fetch(`${t.url}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
      assert.ok(r.status >= 400 && r.status < 500, `${resource}: ${r.status}`);
    }
  });

  it('the independent server reads the Person: inbox, outbox, collections, shared inbox, key, names', async () => {
    const person = await peer.lookupActor(`${t.url}/channel/alice`);
    assert.equal(person.id?.href, `${t.url}/channel/alice`);
    assert.equal(person.preferredUsername, 'alice');
    assert.equal(String(person.name), 'Alice');
    assert.equal(person.inboxId?.href, `${t.url}/channel/alice/inbox`);
    assert.equal(person.outboxId?.href, `${t.url}/channel/alice/outbox`);
    assert.equal(person.followersId?.href, `${t.url}/channel/alice/followers`);
    assert.equal(person.followingId?.href, `${t.url}/channel/alice/following`);
    assert.equal(person.endpoints?.sharedInbox?.href, `${t.url}/inbox`);
    assert.equal(person.manuallyApprovesFollowers, false);
    const key = await person.getPublicKey();
    assert.equal(key?.ownerId?.href, person.id?.href);
    assert.match(key?.id?.href ?? '', /^http:\/\/127\.0\.0\.1:\d+\/channel\/alice#/);
    const icon = await person.getIcon();
    assert.ok(icon?.url, 'an avatar');
  });

  it('a browser at the same URL still gets the app, not the actor document', async () => {
    const r = await fetch(`${t.url}/channel/alice`, { headers: { accept: 'text/html' } });
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
  });

  it('NodeInfo says activitypub; the collections answer', async () => {
    const info = (await (await fetch(`${t.url}/nodeinfo/2.0`)).json()) as { protocols: string[] };
    assert.deepEqual(info.protocols, ['activitypub']);
    for (const c of ['followers', 'following', 'outbox']) {
      const r = await fetch(`${t.url}/channel/alice/${c}`, { headers: AP });
      assert.equal(r.status, 200, c);
      const doc = (await r.json()) as { type: string; totalItems: number };
      assert.match(doc.type, /Collection/);
      assert.equal(doc.totalItems, 0);
    }
  });

  it('an unknown channel is 404 everywhere', async () => {
    for (const p of ['/channel/nobody', '/channel/nobody/outbox', '/channel/nobody/followers']) {
      const r = await fetch(`${t.url}${p}`, { headers: AP });
      assert.equal(r.status, 404, p);
    }
  });
});

describe('federation is off until the owner turns it on', () => {
  let t: TestHub;
  before(async () => {
    t = await startHub({ channels: ['alice'] });
  });
  after(() => t.stop());

  it('no WebFinger, no actor document, NodeInfo names no protocol', async () => {
    const host = new URL(t.url).host;
    assert.equal((await fetch(`${t.url}/.well-known/webfinger?resource=acct:alice@${host}`)).status, 404);
    const actor = await fetch(`${t.url}/channel/alice`, { headers: AP });
    assert.doesNotMatch(actor.headers.get('content-type') ?? '', /activity\+json|ld\+json/);
    assert.equal((await fetch(`${t.url}/channel/alice/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: '{}' })).status >= 400, true);
    const info = (await (await fetch(`${t.url}/nodeinfo/2.0`)).json()) as { protocols: string[] };
    assert.deepEqual(info.protocols, []);
  });
});

describe('hearth federation on|off', () => {
  const cli = join(process.cwd(), 'bin/hearth.js');
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-fed-cli-'));
    await run(process.execPath, [cli, 'channel', 'create', '--nick', 'alice', '--name', 'Alice', '--password', 'correct horse', '--email', 'a@example.com', '--data', dir]);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const env = { ...process.env, HEARTH_FEDERATION_INSECURE: '' };

  it('refuses an address other servers cannot reach, in one line saying what to do', async () => {
    for (const url of ['http://hub.example.org', 'https://192.168.1.20:8420', 'https://localhost', 'https://myhub.local']) {
      const r = await run(process.execPath, [cli, 'federation', 'on', '--base-url', url, '--data', dir], { env }).catch((e: { code: number; stderr: string }) => e);
      assert.equal((r as { code?: number }).code, 2, url);
      const line = (r as { stderr: string }).stderr.trim();
      assert.equal(line.split('\n').length, 1);
      assert.match(line, /reverse proxy|tunnel/);
    }
  });

  it('turns on at a public https address, which is then fixed; off keeps it', async () => {
    const on = await run(process.execPath, [cli, 'federation', 'on', '--base-url', 'https://hub.example.org', '--data', dir], { env });
    assert.match(on.stdout, /https:\/\/hub\.example\.org\/channel\/<nick>/);
    const other = await run(process.execPath, [cli, 'federation', 'on', '--base-url', 'https://other.example.org', '--data', dir], { env }).catch((e: { code: number; stderr: string }) => e);
    assert.equal((other as { code?: number }).code, 2);
    assert.match((other as { stderr: string }).stderr, /never change/);
    const off = await run(process.execPath, [cli, 'federation', 'off', '--data', dir], { env });
    assert.match(off.stdout, /off/);
  });
});
