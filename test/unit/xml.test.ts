import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { renderXml } from '../../server/http/xml.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

test('one value renders as XML with the same data as its JSON', () => {
  const value = { id: 42, text: 'a < b & "c"', statusnet_html: '<p>x</p>', favorited: false, geo: null, user: { id: 1, name: 'Al' }, tags: ['x', 'y'] };
  const xml = renderXml('status', value, { namespaces: true });
  const doc = parser.parse(xml);
  assert.equal(doc.status['@xmlns'], 'http://api.twitter.com');
  assert.equal(doc.status.id, '42');
  assert.equal(doc.status.text, value.text);
  assert.equal(doc.status['statusnet:html'], '<p>x</p>');
  assert.equal(doc.status.favorited, 'false');
  assert.equal(doc.status.geo, '');
  assert.equal(doc.status.user.name, 'Al');
  assert.deepEqual(doc.status.tags.tag, ['x', 'y']);
  assert.deepEqual(JSON.parse(JSON.stringify(value)).id, 42);
});

test('arrays become repeated children with type="array"; attributes and text render', () => {
  const doc = parser.parse(renderXml('statuses', [{ id: 1 }, { id: 2 }], { itemName: 'status' }));
  assert.equal(doc.statuses['@type'], 'array');
  assert.deepEqual(doc.statuses.status.map((s: { id: string }) => s.id), ['1', '2']);
  const attrs = parser.parse(renderXml('photos', [{ '@attributes': { id: 'abc', album: 'A' }, '#text': 'https://x/t.jpg' }], { itemName: 'photo' }));
  assert.equal(attrs.photos.photo['@id'], 'abc');
  assert.equal(attrs.photos.photo['#text'], 'https://x/t.jpg');
});

test('XML stays well-formed for any stored text, control characters included', () => {
  const nasty = 'a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg\uFFFEh\uD800i]]>j<![CDATA[k';
  const xml = renderXml('status', { text: nasty, 'bad key!': 1, '9lives': 2 });
  const doc = parser.parse(xml);
  assert.equal(doc.status.text, 'abcdefghi]]>j<![CDATA[k');
  assert.equal(doc.status['bad_key_'], '1');
  assert.equal(doc.status['_9lives'], '2');
});
