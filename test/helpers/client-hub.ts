import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { basic, startHub, type TestHub } from './hub.js';
import { Browser, send } from './browser.js';
import { selfSignedCert, startTlsProxy, type SelfSignedCert, type TlsProxy } from './tls-proxy.js';

/** One library call of a client scenario, as the scenario reports it. */
export interface CallResult {
  call: string;
  ok: boolean;
  detail?: string | null;
  error?: string;
  trace?: string;
}

/**
 * A hub set up for the Twitter client scenarios, reached by the clients at `base`: the hub itself
 * over http, or (https) a TLS-terminating proxy in front of a hub started with trustProxy and an
 * https base URL. alice follows bob and bob follows alice; bob posted a public status mentioning
 * alice and sent her a direct message; carol is there to be followed.
 */
export interface ClientHub {
  t: TestHub;
  base: string;
  /** alice in a browser at `base`, logged in. */
  browser: Browser;
  cert?: SelfSignedCert;
  proxy?: TlsProxy;
  ids: { alice: number; bob: number; carol: number };
  bobStatus: number;
  /** A PNG of a few kB, as a file and as bytes. */
  image: string;
  imageBytes: Buffer;
  /** The hub's own http address, for seeding with Basic auth whatever `base` is. */
  direct: string;
  api(path: string, as: string, form?: Record<string, string>): Promise<any>;
  stop(): Promise<void>;
}

export async function startClientHub(opts: { https: boolean }): Promise<ClientHub> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-clients-'));
  let cert: SelfSignedCert | undefined;
  let proxy: TlsProxy | undefined;
  let t: TestHub;
  if (opts.https) {
    cert = await selfSignedCert(dir);
    proxy = await startTlsProxy(cert);
    t = await startHub({ channels: ['alice', 'bob', 'carol'], options: { baseUrl: `https://127.0.0.1:${proxy.port}`, trustProxy: true } });
    proxy.target = t.hub.port;
  } else {
    t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  }
  const base = t.hub.baseUrl;
  const direct = `http://127.0.0.1:${t.hub.port}`;
  const api = async (path: string, as: string, form?: Record<string, string>) => {
    const res = await send(direct + path, {
      method: form ? 'POST' : 'GET',
      headers: { authorization: basic(as), 'content-type': 'application/x-www-form-urlencoded' },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
    return JSON.parse(res.text);
  };
  await api('/api/friendships/create.json', 'alice', { screen_name: 'bob' });
  await api('/api/friendships/create.json', 'bob', { screen_name: 'alice' });
  const bobStatus = (await api('/api/statuses/update.json', 'bob', { status: 'Hello @alice, a public word from bob #hearthtag' })).id;
  await api('/api/direct_messages/new.json', 'bob', { screen_name: 'alice', text: 'bob writes to alice' });
  const idOf = async (nick: string) => (await api(`/api/users/show.json?screen_name=${nick}`, 'alice')).id as number;
  const ids = { alice: await idOf('alice'), bob: await idOf('bob'), carol: await idOf('carol') };
  // Noise compresses badly: a few kB, so that chunked uploads take several parts.
  const imageBytes = await sharp(randomBytes(64 * 48 * 3), { raw: { width: 64, height: 48, channels: 3 } }).png().toBuffer();
  const image = join(dir, 'picture.png');
  await writeFile(image, imageBytes);
  const browser = new Browser(base, cert?.cert);
  await browser.login('alice');
  return {
    t, base, browser, cert, proxy, ids, bobStatus, image, imageBytes, direct, api,
    async stop() {
      await t.stop();
      await proxy?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Why a Python client scenario cannot run here (Debian's package is missing), or false. */
export function missingPython(module: 'tweepy' | 'twython'): string | false {
  const r = spawnSync('/usr/bin/python3', ['-c', `import ${module}`], { stdio: 'ignore' });
  return r.status === 0 ? false : `/usr/bin/python3 cannot import ${module} (apt-get install python3-${module})`;
}

const CLIENTS_DIR = fileURLToPath(new URL('../clients/', import.meta.url));

/**
 * Runs a Python client scenario (test/clients/<name>_scenario.py) with Debian's python3, with two
 * apps registered by the owner (one for the PIN flow, one with a callback), approving its OAuth
 * requests in the owner's browser as they come. Returns the calls it reported.
 */
export async function runPythonScenario(h: ClientHub, name: 'tweepy' | 'twython', tag: string): Promise<CallResult[]> {
  const pinApp = await h.browser.registerApp(`${name} desktop`);
  const callback = 'https://client.example/callback';
  const callbackApp = await h.browser.registerApp(`${name} web`, callback);
  const config = {
    base: h.base, tag, image: h.image, bob: { id: h.ids.bob, screen_name: 'bob' }, bob_status: h.bobStatus,
    pin_app: pinApp, callback_app: { ...callbackApp, callback },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' };
  if (h.cert) env.REQUESTS_CA_BUNDLE = h.cert.certFile;
  const child = spawn('/usr/bin/python3', [join(CLIENTS_DIR, `${name}_scenario.py`), JSON.stringify(config)], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const results: CallResult[] = [];
  let done = false;
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.trim()) continue;
    let msg: Record<string, any>;
    try {
      msg = JSON.parse(line);
    } catch {
      results.push({ call: '(output)', ok: false, error: line });
      continue;
    }
    if (msg.need === 'approve') {
      const answer = await h.browser.approve(String(msg.url)).catch((err: Error) => ({ error: err.message }));
      child.stdin.write(`${JSON.stringify(answer)}\n`);
    } else if (msg.call) {
      results.push(msg as CallResult);
    } else if (msg.done) {
      done = true;
    }
  }
  const code = await exited;
  assert.ok(done && code === 0, `${name} scenario ended early (exit ${code}): ${stderr.slice(-2000)}`);
  return results;
}

/** Fails with every failed call and its error; reports each call as a test diagnostic. */
export function assertAllPassed(results: CallResult[], required: string[], diagnostic: (line: string) => void): void {
  for (const r of results) diagnostic(`${r.ok ? 'ok  ' : 'FAIL'} ${r.call}${r.ok ? (r.detail ? ` (${r.detail})` : '') : `: ${r.error}`}`);
  const failed = results.filter((r) => !r.ok);
  assert.deepEqual(failed.map((r) => `${r.call}: ${r.error}\n${r.trace ?? ''}`), [], 'every library call succeeds');
  const names = results.map((r) => r.call);
  assert.deepEqual(required.filter((want) => !names.some((n) => n.includes(want))), [], 'every call of the scenario ran');
}
