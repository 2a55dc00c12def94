import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderXml, type XmlOptions } from '../../server/http/xml.js';
import { renderXml as referenceXml } from '../helpers/xml-reference.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';
import { createItem } from '../../server/services/items.js';
import { connect } from '../../server/services/connections.js';

/*
 * The hub writes XML itself, in one pass over the answer. Its documents must equal, byte for byte,
 * those of the builder it used before (fast-xml-parser over a converted tree, kept in
 * test/helpers/xml-reference.ts): on odd values and on real answers.
 */

const same = (root: string, value: unknown, opts: XmlOptions = {}) => assert.equal(renderXml(root, value, opts), referenceXml(root, value, opts), `${root} ${JSON.stringify(value)?.slice(0, 200)} ${JSON.stringify(opts)}`);

test('odd values: empty and nested arrays, attributes, text, escapes, control characters, names', () => {
  const odd = {
    id: 42, neg: -0, float: 1.5, yes: true, no: false, nothing: null, missing: undefined, empty: '', spaces: '  padded  ', blank: '   ',
    text: `a < b & "c" 'd' > e`, html: '<p class="x">hi &amp; bye</p>', nasty: 'a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg\uFFFEh\uD800i]]>j<![CDATA[k',
    emoji: 'snow ☃ and 😀 and lone \uDC00 end', 'bad key!': 1, '9lives': 2, statusnet_html: '<b>x</b>', friendica_owner: { id: 1, name: 'Ö' },
    tags: ['x', '', 'y & z'], entries: [], users: [{ id: 1 }, { id: 2, user: { name: 'n' } }], like: [{ id: 3 }], nested: { deeper: { deepest: ['a'] } },
    '@attributes': { id: 'abc', 'data x': 'q"uote', empty: '' }, links: [{ '@attributes': { href: 'h' }, '#text': 't' }, { '@attributes': { rel: 'r' } }],
    only_text: { '#text': 'just text' }, text_empty: { '#text': '' }, attr_only: { '@attributes': { a: '1' } }, mixed: { '#text': 'lead', child: 'c' },
    odd_attrs: { '@attributes': null, x: 1 }, array_attrs: { '@attributes': ['p', 'q'] },
  };
  for (const opts of [{}, { namespaces: true }, { arrayTypeKeys: ['tags', 'entries', 'links'] }, { childNames: { tags: 'tag_name', users: 'u' } }]) {
    same('status', odd, opts);
    same('statuses', [odd, odd], { ...opts, itemName: 'status' });
    same('statuses', [odd], { ...opts, arrayType: false });
    same('users', ['a', '', { id: 1 }], opts);
    same('statuses', [], opts);
    same('statuses', [], { ...opts, arrayType: false });
  }
  for (const scalar of ['ok', '', 42, true, null, 'a & b']) {
    same('result', scalar);
    same('result', scalar, { namespaces: true });
  }
  same('status', {});
  same('status', {}, { namespaces: true });
  same('status', { '@attributes': { a: 'b' } }, { namespaces: true });
  assert.throws(() => renderXml('x', { a: [[1]] }), /arrays are converted by their parent/);
});

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const alice = t.channels.alice!;
  const bob = t.channels.bob!;
  connect(t.hub, alice, bob.channel_hash);
  connect(t.hub, bob, alice.channel_hash);
  const bodies = ['plain text & <angle> "quotes"', '[b]bold[/b] #tag @bob https://example.org/x?a=1&b=2', 'line\nbreaks\n\nand ☃ 😀', '[quote]q[/quote][img]https://example.org/i.png[/img]', ''];
  for (const [i, body] of bodies.entries()) {
    const top = createItem(t.hub, i % 2 ? bob : alice, { body: body || 'x', title: i === 1 ? 'Title <with> & stuff' : '' });
    createItem(t.hub, alice, { body: `reply ${i} to ${top.id}`, parentId: top.id });
  }
});

after(async () => t?.stop());

test('real answers: timelines, a status, users, the account', async () => {
  const cases: [string, string, XmlOptions][] = [
    ['statuses/home_timeline', 'statuses', { itemName: 'status' }],
    ['statuses/user_timeline', 'statuses', { itemName: 'status' }],
    ['statuses/public_timeline', 'statuses', { itemName: 'status' }],
    ['account/verify_credentials', 'user', {}],
    ['users/show?screen_name=bob', 'user', {}],
  ];
  for (const [path, root, opts] of cases) {
    const [p, q] = path.split('?');
    const json = await call(t, `/api/${p}.json${q ? `?${q}` : ''}`, { as: 'alice' });
    const xml = await call(t, `/api/${p}.xml${q ? `?${q}` : ''}`, { as: 'alice' });
    assert.equal(json.status, 200, path);
    assert.equal(xml.status, 200, path);
    assert.equal(xml.text, referenceXml(root, json.body, { namespaces: true, ...opts }), path);
  }
});
