import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { assertHarmlessHtml } from '../helpers/html.js';
import { tinyPng } from '../helpers/hostile.js';
import { routeUrls, type RouteUrl } from '../helpers/routes.js';
import { compatRoutes } from '../../server/api/compat/routes.js';
import { connect } from '../../server/services/connections.js';

// Hostile markup in every field a person can write (bodies, titles, captions, album names, profile
// fields, file names) never reaches a viewer's page as markup: every HTML field of either API, and
// the HTML inside RSS and Atom feeds, is harmless; every XML answer is well-formed whatever the
// stored text holds, control characters included.

const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '<a href="javascript:alert(1)">a</a>',
  '<a href="  JaVaScRiPt:alert(1)">b</a>',
  '<div style="position:fixed;top:0;background:url(javascript:alert(1))">c</div>',
  '<iframe src="https://evil.example/"></iframe>',
  '<style>body{display:none}</style>',
  '[url=javascript:alert(1)]d[/url]',
  '[url="javascript:alert(1)"]e[/url]',
  '[zrl=javascript:alert(1)]f[/zrl]',
  '[img]javascript:alert(1)[/img]',
  '[img=10x10]x" onerror="alert(1)[/img]',
  '[url=data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==]g[/url]',
  '[color=red;position:fixed;top:0]h[/color]',
  '[font=x" onmouseover="alert(1)]i[/font]',
  '[size=999999999]j[/size]',
  '[iframe]https://evil.example/[/iframe]',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '[x](javascript:alert(1)) ![y](javascript:alert(1))',
];
/** Characters XML 1.0 cannot carry, and other oddities, in stored text. */
const CONTROL = 'ctl\u0001\u0002\u0008\u000b\u000c\u001b\u007f\u0085\ufffe\uffff end \ud83d\ude00';

const payload = XSS.join(' \n');
let t: TestHub;
const counts = { requests: 0, htmlFields: 0, payloadFields: 0, feeds: 0, xmlDocuments: 0, writes: 0 };

async function post(path: string, fields: Record<string, string>, file?: { field: string; name: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.field, new Blob([tinyPng()], { type: 'image/png' }), file.name);
  const res = await fetch(t.url + path, { method: 'POST', headers: { authorization: basic('alice') }, body: form });
  counts.writes++;
  const text = await res.text();
  assert.ok(res.status < 500, `${path}: ${res.status} ${text.slice(0, 200)}`);
  return res.status;
}

const has = (p: string) => compatRoutes.some((r) => r.path === p);

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  connect(t.hub, t.channels.alice!, t.channels.bob!.channel_hash);
  connect(t.hub, t.channels.bob!, t.channels.alice!.channel_hash);
  for (const mimetype of ['text/bbcode', 'text/markdown', 'text/plain', 'text/html']) {
    await post('/api/z/1.0/item/update', { body: payload, title: XSS[1]!, mimetype });
  }
  await post('/api/z/1.0/item/update', { body: CONTROL, title: CONTROL });
  await post('/api/z/1.0/item/update', { body: `${XSS[0]} with an image` }, { field: 'media', name: `${XSS[1]}.png` });
  await post('/api/statuses/update.json', { status: payload, title: XSS[2]! });
  await post('/api/statuses/update.json', { status: CONTROL });
  if (has('ext/photo/create')) {
    await post('/api/ext/photo/create.json', { album: XSS[2]!, title: XSS[0]!, desc: payload }, { field: 'media', name: `${XSS[1]}.png` });
    await post('/api/ext/photo/create.json', { album: CONTROL, title: CONTROL, desc: CONTROL }, { field: 'media', name: 'control.png' });
  }
  if (has('account/update_profile')) await post('/api/account/update_profile.json', { name: XSS[2]!, description: payload, location: XSS[1]!, url: 'javascript:alert(1)' });
  // bob comments on alice's posts, so that other viewers' pages carry the content too.
  const form = new FormData();
  form.append('status', payload);
  await fetch(`${t.url}/api/statuses/update.json`, { method: 'POST', headers: { authorization: basic('bob') }, body: form });
});
after(async () => {
  console.log(`content: ${counts.writes} hostile writes (${XSS.length} markup tricks, control characters); ${counts.requests} reads checked ${counts.htmlFields} HTML fields (${counts.payloadFields} carrying the hostile text), ${counts.feeds} feeds and ${counts.xmlDocuments} XML documents`);
  await t.stop();
});

/** Every string under a key that holds HTML, anywhere in a JSON value. */
function htmlFields(value: unknown, key = '', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string' && /html|content_rendered|^description_html$/i.test(key)) out.push([key, value]);
  else if (Array.isArray(value)) value.forEach((v) => htmlFields(v, key, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) htmlFields(v, k, out);
  return out;
}

const feedParser = new XMLParser({ ignoreAttributes: false, processEntities: true, htmlEntities: true });

/** The HTML a feed reader would render: RSS descriptions and content:encoded, Atom content and summary. */
function feedHtml(xml: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string' && /^(description|content:encoded|content|summary)$/.test(key)) out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(k === '#text' ? x : x, k === '#text' ? key : k);
  };
  walk(feedParser.parse(xml), '');
  return out;
}

async function read(r: RouteUrl, as: string, suffix: string): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`${t.url}${r.path}${suffix}`, { headers: { authorization: basic(as) } });
  counts.requests++;
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

test('no HTML field of any route, and no feed, carries markup that could run or restyle', async () => {
  const failures: string[] = [];
  const reads = routeUrls({ allPrefixes: false }).filter((r) => (r.route.methods === '*' || r.route.methods.includes('GET')) && !r.route.path.startsWith('oauth/'));
  for (const as of ['alice', 'bob']) {
    for (const r of reads) {
      const formats = r.route.formats ?? r.api.defaultFormats;
      const json = await read(r, as, '');
      if (json.status < 300 && /json/.test(json.type)) {
        for (const [key, html] of htmlFields(JSON.parse(json.text))) {
          counts.htmlFields++;
          if (/alert\(1\)|&lt;script/.test(html)) counts.payloadFields++;
          try {
            assertHarmlessHtml(html);
          } catch (e) {
            failures.push(`${as} ${r.path} ${key}: ${(e as Error).message.slice(0, 300)}`);
          }
        }
      }
      for (const feed of formats.filter((f) => f === 'rss' || f === 'atom')) {
        const res = await read(r, as, `.${feed}`);
        if (res.status >= 300) continue;
        counts.feeds++;
        if (XMLValidator.validate(res.text) !== true) {
          failures.push(`${as} ${r.path}.${feed}: not well-formed`);
          continue;
        }
        for (const html of feedHtml(res.text)) {
          try {
            assertHarmlessHtml(html);
          } catch (e) {
            failures.push(`${as} ${r.path}.${feed}: ${(e as Error).message.slice(0, 300)}`);
          }
        }
      }
    }
  }
  assert.ok(counts.payloadFields > 0, 'no HTML field carried the hostile content, so nothing was tested');
  assert.deepEqual(failures, []);
});

test('every XML answer is well-formed, whatever the stored text holds', async () => {
  const failures: string[] = [];
  for (const r of routeUrls({ allPrefixes: false }).filter((u) => (u.route.methods === '*' || u.route.methods.includes('GET')) && !u.route.path.startsWith('oauth/'))) {
    const formats = (r.route.formats ?? r.api.defaultFormats).filter((f) => f !== 'json');
    for (const f of formats) {
      const res = await read(r, 'alice', `.${f}`);
      counts.xmlDocuments++;
      const valid = XMLValidator.validate(res.text);
      if (valid !== true) failures.push(`${r.path}.${f} (${res.status}): ${JSON.stringify(valid.err)}`);
      // XML 1.0 forbids these characters even as character references.
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|&#x0*(?:[0-8bcef]|1[0-9a-f]|fffe|ffff);|&#0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|65534|65535);/i.test(res.text)) failures.push(`${r.path}.${f}: characters XML 1.0 does not allow`);
    }
  }
  assert.ok(counts.xmlDocuments > 0);
  assert.deepEqual(failures, []);
});
