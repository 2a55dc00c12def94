import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkIntegrity } from '../../server/services/integrity.js';
import { totalChanges } from '../../server/store/stats.js';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { brokenMultiparts, HOSTILE_VALUES, hostileFiles, wrongTypeForms } from '../helpers/hostile.js';
import { ParamSpy } from '../helpers/param-spy.js';
import { acceptedMethods, errorMessage, routeUrls, type RouteUrl } from '../helpers/routes.js';
import { seed } from '../helpers/seed.js';

// Bad input for every endpoint: each parameter a handler reads (found by watching the handler ask
// for it) and a set of common names get hostile values; broken bodies and hostile files go to every
// route that takes a body. Nothing may answer 5xx, errors must carry a message, and a refused
// request must not change the database or leave files behind.

let t: TestHub;
const spy = new ParamSpy();
const AUTH = { authorization: basic('alice') };
const counts = { requests: 0, routes: 0, parameters: 0, inputs: 0, refused: 0, accepted: 0, files: 0, brokenBodies: 0 };
const failures: string[] = [];

/** Names clients commonly send; fuzzed on every route even when the handler never asked for them. */
/** How many of those each route gets (rotating, so that every name meets every route over the run). */
const SAMPLED_COMMON = 6;
const COMMON = ['id', 'user_id', 'screen_name', 'status', 'body', 'title', 'count', 'page', 'since_id', 'max_id', 'file_id', 'start', 'length', 'photo_id', 'scale', 'album', 'gid', 'name', 'json', 'q', 'text', 'channel', 'in_reply_to_status_id', 'media_ids', 'profile_id', 'records', 'mid', 'group_allow', 'contact_allow'];
/** Values every parameter a handler reads gets; the rest of HOSTILE_VALUES rotate through. */
const CORE = ['empty', 'negative', 'huge number', 'non-numeric', 'float', 'sql quote', 'path traversal', 'NUL byte', 'invalid UTF-8', 'control characters', 'script', 'broken JSON', 'long string'];
const CORE_VALUES = HOSTILE_VALUES.filter(([name]) => CORE.includes(name));

/** Routes that take only images (the others store any file as an attachment, served as a download). */
const IMAGE_ONLY = new Set(['media/upload', 'ext/photo/create', 'ext/photo/update', 'account/update_profile_image']);
/** Plausible values for the parameters a route needs to get past its first checks. */
const PLAUSIBLE: Record<string, string> = { status: 'fuzz', body: 'fuzz', text: 'fuzz', title: 'fuzz', album: 'fuzz album', name: 'fuzz', desc: 'fuzz', screen_name: 'bob', json: '{"name":"fuzz","user":[]}' };

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'], options: { throttle: { maxFailures: 1_000_000 }, limits: { maxFormBytes: 4 * 1024 * 1024, maxUploadBytes: 8 * 1024 * 1024 } } });
  await seed(t);
  spy.install();
});

after(async () => {
  spy.uninstall();
  console.log(`fuzz: ${counts.requests} requests to ${counts.routes} route×method pairs; ${counts.parameters} parameters × hostile values = ${counts.inputs} inputs; ${counts.files} hostile files, ${counts.brokenBodies} broken bodies; ${counts.refused} refused with 4xx, ${counts.accepted} accepted`);
  await t.stop();
});

/** Sends one request and checks the answer; returns the status. */
async function probe(r: RouteUrl, what: string, method: string, path: string, init: RequestInit = {}): Promise<number> {
  const before = totalChanges(t.hub.db);
  let res: Response;
  try {
    res = await fetch(t.url + path, { method, ...init, headers: { ...AUTH, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(60_000) });
  } catch (e) {
    failures.push(`${method} ${r.path} ${what}: no answer (${(e as Error).message})`);
    return 0;
  }
  counts.requests++;
  const text = await res.text();
  if (res.status >= 500) {
    failures.push(`${method} ${r.path} ${what}: ${res.status} ${text.slice(0, 160)}`);
  } else if (res.status >= 400) {
    counts.refused++;
    if (res.status !== 431) {
      try {
        const message = await errorMessage(res, r.api, text);
        if (/internal error|undefined|\[object/i.test(message)) failures.push(`${method} ${r.path} ${what}: unclear message "${message}"`);
      } catch (e) {
        failures.push(`${method} ${r.path} ${what}: ${(e as Error).message}`);
      }
    }
    const changes = totalChanges(t.hub.db) - before;
    if (changes) failures.push(`${method} ${r.path} ${what}: refused with ${res.status} but changed ${changes} rows`);
  } else counts.accepted++;
  return res.status;
}

const form = (pairs: Record<string, string>) => Object.entries(pairs).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

function send(r: RouteUrl, method: string, what: string, query: string) {
  if (method === 'GET') return probe(r, what, method, `${r.path}${query ? `?${query}` : ''}`);
  return probe(r, what, method, r.path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: query });
}

/** Finds the parameters a route reads by asking it repeatedly with what it asked for so far. */
async function discover(r: RouteUrl, method: string): Promise<{ names: string[]; files: string[]; baseline: Record<string, string> }> {
  const names = new Set<string>();
  const files = new Set<string>();
  const baseline: Record<string, string> = {};
  for (let round = 0; round < 4; round++) {
    spy.clear();
    await send(r, method, `discovery ${round}`, form(baseline));
    const before = names.size + files.size;
    for (const n of spy.names) names.add(n);
    for (const n of spy.fileNames) files.add(n);
    for (const n of names) baseline[n] ??= PLAUSIBLE[n] ?? '1';
    if (names.size + files.size === before) break;
  }
  // Fuzzed separately: it selects the identity, so a plausible value would lock the caller out.
  names.delete('channel');
  delete baseline.channel;
  return { names: [...names], files: [...files], baseline };
}

test('hostile values for every parameter of every route never cause a 5xx or a write', async () => {
  assert.equal(CORE_VALUES.length, CORE.length, 'a core value name is misspelt');
  let rotation = 0;
  for (const r of routeUrls({ allPrefixes: false })) {
    if (r.route.path.startsWith('oauth/')) continue; // signed protocol endpoints: see the OAuth tests
    for (const method of acceptedMethods(r.route)) {
      counts.routes++;
      const { names, baseline } = await discover(r, method);
      // A '*' route runs the same handler for GET and POST: the full table once, a sample for POST.
      const sampled = r.route.methods === '*' && method !== 'GET';
      const values = (offset: number, n: number) => Array.from({ length: n }, (_, i) => HOSTILE_VALUES[(offset + i) % HOSTILE_VALUES.length]!);
      // Names the handler never reads can only matter to the shared layers: a rotating sample.
      const others = COMMON.filter((n) => !names.includes(n));
      const common = Array.from({ length: Math.min(SAMPLED_COMMON, others.length) }, (_, i) => others[(rotation + i * 5) % others.length]!);
      const targets: [string, [string, string][]][] = [
        ...names.map((n, i): [string, [string, string][]] => [n, sampled ? values(rotation + i, 6) : [...CORE_VALUES, ...values(rotation + i * 2, 3)]]),
        ...common.map((n, i): [string, [string, string][]] => [n, values(rotation + i * 3, 1)]),
        ['channel', values(rotation, 3)],
      ];
      rotation++;
      for (const [name, values] of targets) {
        counts.parameters++;
        const rest = form(Object.fromEntries(Object.entries(baseline).filter(([k]) => k !== name)));
        for (const [what, encoded] of values) {
          counts.inputs++;
          await send(r, method, `${name}=<${what}>`, [rest, `${encodeURIComponent(name)}=${encoded}`].filter(Boolean).join('&'));
        }
        if (names.includes(name) && !sampled) {
          const forms = wrongTypeForms(name);
          for (const [what, pairs] of [forms[1]!, forms[(rotation + 2) % 3 === 1 ? 0 : (rotation + 2) % 3]!]) {
            counts.inputs++;
            await send(r, method, `${name} ${what}`, [rest, pairs].filter(Boolean).join('&'));
          }
        }
      }
      if (r.route.idParam) {
        for (const [what, encoded] of HOSTILE_VALUES.filter(([, v]) => v !== '' && !v.includes('%2F') && v.length < 1000)) {
          counts.inputs++;
          await probe(r, `path id <${what}>`, method, `${r.path}/${encoded}`);
        }
      }
      if (method !== 'GET' && names.length && !sampled) {
        // Multi-megabyte values, in an urlencoded body and in a multipart text field.
        const huge = 'A'.repeat(3 * 1024 * 1024);
        counts.inputs += 2;
        await send(r, method, `${names[0]}=<3 MB>`, form({ ...baseline, [names[0]!]: huge }));
        const fd = new FormData();
        for (const [k, v] of Object.entries({ ...baseline, [names[names.length - 1]!]: huge })) fd.append(k, v);
        await probe(r, `${names[names.length - 1]}=<3 MB multipart>`, method, r.path, { body: fd });
      }
    }
  }
  assert.deepEqual(failures.splice(0), []);
});

test('broken bodies and hostile files are refused with 4xx, change nothing and leave no files', async () => {
  let turn = 0;
  for (const r of routeUrls({ allPrefixes: false })) {
    if (r.route.path.startsWith('oauth/')) continue;
    const methods = acceptedMethods(r.route).filter((m) => m !== 'GET');
    for (const method of methods) {
      const { files, baseline } = await discover(r, method);
      // Routes that read files get every broken body and hostile file; the others (whose bodies
      // only the shared parser sees) a rotating few.
      const all = files.length > 0;
      const bodies = brokenMultiparts();
      for (const b of all ? bodies : [bodies[turn % bodies.length]!, bodies[(turn + 3) % bodies.length]!]) {
        counts.brokenBodies++;
        await probe(r, b.name, method, r.path, { headers: { 'content-type': b.contentType }, body: b.body });
      }
      const hostile = hostileFiles();
      for (const field of all ? files : ['media']) {
        for (const f of all ? hostile : [hostile[turn++ % hostile.length]!]) {
          counts.files++;
          const fd = new FormData();
          for (const [k, v] of Object.entries(baseline)) fd.append(k, v);
          fd.append(field, new Blob([f.data], { type: f.type }), f.filename);
          const status = await probe(r, `${field}=<${f.name}>`, method, r.path, { body: fd });
          if (IMAGE_ONLY.has(r.route.path) && status >= 200 && status < 300) failures.push(`${method} ${r.path} accepted ${f.name} as ${field}`);
        }
      }
    }
  }
  assert.deepEqual(failures.splice(0), []);
  assert.deepEqual(await readdir(join(t.dataDir, 'tmp')), [], 'uploads left temporary files');
  assert.deepEqual(await readdir(join(t.dataDir, 'store', '.tmp')), [], 'the store left temporary files');
  const integrity = await checkIntegrity(t.hub.db, t.hub.files);
  assert.deepEqual({ orphanFiles: integrity.orphanFiles, rowsWithoutFile: integrity.rowsWithoutFile }, { orphanFiles: 0, rowsWithoutFile: 0 }, integrity.repaired.join('; '));
});
