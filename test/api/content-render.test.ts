import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { htmlToText } from '../../server/content/render.js';
import { setConfig } from '../../server/store/config.js';
import { updateItem } from '../../server/store/items.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { MARKUP_CORPUS, visibleText } from '../helpers/markup-corpus.js';
import { post } from '../helpers/native.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice'] });
});

after(async () => {
  await t?.stop();
});

interface Status {
  id: number;
  statusnet_html: string;
}

test('statusnet_html shows every visible character of the tricky bodies', async () => {
  for (const entry of MARKUP_CORPUS) {
    const res = await t.request('/api/statuses/update.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ status: entry.body }) });
    assert.equal(res.status, 200, entry.name);
    const created = (await res.json()) as Status;
    const shown = (await (await t.request(`/api/statuses/show.json?id=${created.id}`, { as: 'alice' })).json()) as Status;
    assert.equal(visibleText(shown.statusnet_html), entry.visible, entry.name);
  }
});

test('the native item html shows every visible character of the tricky bodies, when posted and when edited', async () => {
  const draft = await post(t, 'alice', { body: 'draft' });
  for (const entry of MARKUP_CORPUS) {
    const item = await post(t, 'alice', { body: entry.body });
    assert.equal(visibleText(item.html), entry.visible, `${entry.name} (posted)`);
    const edited = await post(t, 'alice', { post_id: draft.id, body: entry.body });
    assert.equal(visibleText(edited.html), entry.visible, `${entry.name} (edited)`);
  }
});

test('posts stored by an older renderer are rendered again when the hub starts', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-rerender-'));
  try {
    const first = await startHub({ channels: ['alice'], dataDir });
    const item = await post(first, 'alice', { body: 'Reference [1] and [sic]' });
    // What the renderer before version 2 stored for this body.
    updateItem(first.hub.db, Number(item.id), { html: 'Reference &lt;1&gt; and' });
    setConfig(first.hub.db, 'system', 'renderer_version', '1');
    await first.stop();

    const again = await startHub({ dataDir });
    try {
      const deadline = Date.now() + 30_000;
      let html = '';
      while (Date.now() < deadline) {
        html = ((await (await again.request(`/api/statuses/show.json?id=${item.id}`, { as: 'alice' })).json()) as Status).statusnet_html;
        if (html !== 'Reference &lt;1&gt; and') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(visibleText(html), 'Reference [1] and [sic]');
    } finally {
      await again.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('items keep the plain text of their HTML when posted, edited and re-rendered, and statuses show it', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-plain-text-'));
  try {
    const first = await startHub({ channels: ['alice'], dataDir });
    const db = first.hub.db;
    const stored = (id: unknown) => db.prepare('SELECT html, html_text FROM item WHERE id = ?').get(Number(id)) as { html: string; html_text: string | null };
    const item = await post(first, 'alice', { body: '[b]Bold[/b] & <angle> [url=https://example.org]a link[/url]' });
    assert.deepEqual(stored(item.id), { html: stored(item.id).html, html_text: htmlToText(stored(item.id).html) });
    assert.match(stored(item.id).html_text!, /^Bold & <angle> a link$/);
    await post(first, 'alice', { post_id: item.id, body: 'Edited [i]text[/i]' });
    assert.equal(stored(item.id).html_text, 'Edited text');
    // Statuses read the kept text: what is stored is what they show.
    db.prepare('UPDATE item SET html_text = ? WHERE id = ?').run('kept text', Number(item.id));
    const show = async (hub: TestHub) => ((await (await hub.request(`/api/statuses/show.json?id=${item.id}`, { as: 'alice' })).json()) as { text: string }).text;
    assert.equal(await show(first), 'kept text');
    // Items from before the text was kept (or from an older renderer) get it when the hub starts.
    db.prepare('UPDATE item SET html_text = NULL WHERE id = ?').run(Number(item.id));
    assert.equal(await show(first), 'Edited text', 'without a kept text, it is made from the HTML');
    setConfig(db, 'system', 'renderer_version', '2');
    await first.stop();

    const again = await startHub({ dataDir });
    try {
      const deadline = Date.now() + 30_000;
      let text: string | null = null;
      while (Date.now() < deadline && (text = (again.hub.db.prepare('SELECT html_text FROM item WHERE id = ?').pluck().get(Number(item.id)) as string | null)) === null) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(text, 'Edited text');
    } finally {
      await again.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
