import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createHub } from '../../server/hub.js';
import { serveOptions } from '../../server/cli.js';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { routeUrls } from '../helpers/routes.js';
import { seed } from '../helpers/seed.js';

// The hub listens on loopback unless told otherwise, and every URL it hands out comes from the
// configured base URL: a forged Host header (that the DNS-rebinding guard lets through) never
// shows up in a response.

test('the hub binds to loopback by default, from the API and from the command line', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bind-'));
  try {
    const hub = await createHub({ dataDir, port: 0 });
    try {
      await hub.listen();
      assert.equal(hub.host, '127.0.0.1');
      assert.equal((await fetch(`http://127.0.0.1:${hub.port}/api/help/test.json`)).status, 200);
      // Not reachable on this machine's other addresses.
      const lan = Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal && i.family === 'IPv4').map((i) => i!.address);
      for (const address of lan) {
        await assert.rejects(connectTo(address, hub.port), `reachable on ${address}`);
      }
      if (!lan.length) console.log('exposure: this machine has no non-loopback IPv4 address to try');
    } finally {
      await hub.close();
    }
    assert.equal(serveOptions([], {}).host, '127.0.0.1');
    assert.equal(serveOptions(['--port', '0'], {}).host, '127.0.0.1');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

function connectTo(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => {
      socket.end();
      resolve();
    });
    socket.on('error', reject);
  });
}

let t: TestHub;
const counts = { requests: 0 };
const FORGED = ['evil.local:9', 'localhost:9999', '10.6.6.6:8080', '[::2]:7777', 'attacker.localhost'];

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'], options: { baseUrl: 'http://hearth.example:8420' } });
  await seed(t);
});
after(async () => {
  console.log(`exposure: ${counts.requests} requests with ${FORGED.length} forged Host headers`);
  await t.stop();
});

function get(path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: string }> {
  const port = t.hub.port;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text, headers: JSON.stringify(res.headers) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a forged Host header never appears in any response of any route, feed or page', async () => {
  const failures: string[] = [];
  const paths = routeUrls({ allPrefixes: false })
    .filter((r) => r.route.methods === '*' || r.route.methods.includes('GET'))
    .flatMap((r) => ['', ...(r.route.formats ?? r.api.defaultFormats).filter((f) => f !== 'json').map((f) => `.${f}`)].map((suffix) => `${r.path}${suffix}`));
  paths.push('/session', '/login', '/setup', '/', '/settings/oauth', '/api/no/such/path');
  for (const host of FORGED) {
    const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    for (const path of paths) {
      const res = await get(path, host, { authorization: basic('alice') });
      counts.requests++;
      if (res.status === 421) continue;
      if (res.text.includes(name) || res.headers.includes(name)) failures.push(`Host ${host}: ${path} (${res.status}) echoes it`);
    }
  }
  assert.deepEqual(failures, []);
  // And the configured base URL is what they carry instead.
  const verify = await get('/api/account/verify_credentials.json', 'localhost:9999', { authorization: basic('alice') });
  assert.match(verify.text, /http:\/\/hearth\.example:8420\//);
});
