import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';

// Comments and direct messages are written in the same formats as posts: statuses/update and
// direct_messages/new take item/update's `mimetype` (BBCode unless said).

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});
after(() => t.stop());

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

const form = (as: string, path: string, fields: Record<string, string>) => t.request(path, { as, method: 'POST', body: new URLSearchParams(fields) });

test('statuses/update: a comment in Markdown or plain text is shown so; BBCode stays the default', async () => {
  const post = await json<{ id: number }>(await form('alice', '/api/statuses/update.json', { status: 'A post' }));
  const md = await json<{ statusnet_html: string; text: string }>(await form('bob', '/api/statuses/update.json', { status: '**bold** and _soft_', in_reply_to_status_id: String(post.id), mimetype: 'text/markdown' }));
  assert.match(md.statusnet_html, /<strong>bold<\/strong> and <em>soft<\/em>/);
  assert.equal(md.text, 'bold and soft');
  const plain = await json<{ statusnet_html: string }>(await form('bob', '/api/statuses/update.json', { status: '[b]as typed[/b] **too**', in_reply_to_status_id: String(post.id), mimetype: 'text/plain' }));
  assert.match(plain.statusnet_html, /\[b\]as typed\[\/b\] \*\*too\*\*/);
  const bbcode = await json<{ statusnet_html: string }>(await form('bob', '/api/statuses/update.json', { status: '[b]bold[/b] **not**', in_reply_to_status_id: String(post.id) }));
  assert.match(bbcode.statusnet_html, /<span style="font-weight:bold">bold<\/span> \*\*not\*\*/);
  const refused = await form('bob', '/api/statuses/update.json', { status: 'x', in_reply_to_status_id: String(post.id), mimetype: 'text/html' });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /unsupported mimetype text\/html/);
});

test('direct_messages/new: a message in Markdown is shown so, to both; an unknown format is refused', async () => {
  const dm = await json<{ id: number; text: string }>(await form('alice', '/api/direct_messages/new.json?getText=html', { screen_name: 'bob', text: 'See **this** `code`', mimetype: 'text/markdown' }));
  assert.match(dm.text, /See <strong>this<\/strong> <code>code<\/code>/);
  const inbox = await json<{ id: number; text: string }[]>(await t.request('/api/direct_messages/all.json?getText=html', { as: 'bob' }));
  assert.match(inbox.find((m) => m.id === dm.id)!.text, /<strong>this<\/strong>/);
  const plain = await json<{ text: string }[]>(await t.request('/api/direct_messages/all.json', { as: 'bob' }));
  assert.ok(plain.some((m) => m.text === 'See this code'), 'the plain text has no markup');
  const refused = await form('alice', '/api/direct_messages/new.json', { screen_name: 'bob', text: 'x', mimetype: 'application/x-php' });
  assert.equal(refused.status, 400);
});
