import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LinkRewriter } from '../../server/services/channel-import/links.js';
import { normaliseSourceUrl } from '../../server/services/channel-import/native-client.js';

const OLD = 'http://127.0.0.1:8480';
const NEW = 'http://192.168.1.20:8420';
const UUID = 'fb9eca3a-6645-4665-a0f7-f64072910338';
const HEX = 'a'.repeat(64);

const links = new LinkRewriter(
  { bases: [OLD, 'http://hub.lan'], nick: 'alice', channelId: '2' },
  { base: NEW, nick: 'alice-2', channelId: '7' },
  new Map([[UUID, HEX]]),
  new Map([['800038a5-c60f-4e3e-a08a-21fae00250b5', 'Holiday']]),
);

test('links to the imported channel\'s photos, files and pages point at this hub; others stay', () => {
  assert.equal(links.text(`[zmg=${OLD}/photo/${UUID}-2.png]x[/zmg]`), `[zmg=${NEW}/photo/${HEX}-2.png]x[/zmg]`);
  assert.equal(links.text(`${OLD}/photo/${UUID}`), `${NEW}/photo/${HEX}`);
  assert.equal(links.text(`${OLD}/photos/alice/image/${UUID}`), `${NEW}/photos/alice-2/image/${HEX}`);
  assert.equal(links.text(`${OLD}/photos/alice/album/800038a5-c60f-4e3e-a08a-21fae00250b5`), `${NEW}/photos/alice-2/album/486f6c69646179`);
  assert.equal(links.text(`${OLD}/attach/${UUID}?download`), `${NEW}/attach/${HEX}?download`);
  assert.equal(links.text(`see ${OLD}/channel/alice and ${OLD}/channel/alice?f=&cat=News`), `see ${NEW}/channel/alice-2 and ${NEW}/channel/alice-2?f=&cat=News`);
  assert.equal(links.text(`http://hub.lan/photo/profile/m/2`), `${NEW}/photo/profile/m/7`, 'another base URL of the same hub');
  assert.equal(links.text(`${OLD}/search?tag=sea`), `${NEW}/search?tag=sea`);
  // Not the channel's: other channels, unknown files, other hubs, a longer port.
  for (const kept of [`${OLD}/channel/bob`, `${OLD}/photo/${'b'.repeat(64)}-1.jpg`, `${OLD}/photo/profile/m/3`, `${OLD}/cloud/alice/x`, 'http://127.0.0.1:84801/channel/alice', 'https://elsewhere.example/channel/alice']) {
    assert.equal(links.text(kept), kept, kept);
  }
});

test('the source hub\'s address, from what a person types', () => {
  assert.equal(normaliseSourceUrl('hub.example.org'), 'https://hub.example.org');
  assert.equal(normaliseSourceUrl(' http://127.0.0.1:8480/ '), 'http://127.0.0.1:8480');
  assert.equal(normaliseSourceUrl('https://hub.example.org/hz/api/z/1.0/verify'), 'https://hub.example.org/hz');
  assert.throws(() => normaliseSourceUrl('ftp://hub.example.org'), /http/);
  assert.throws(() => normaliseSourceUrl(''), /missing/);
});
