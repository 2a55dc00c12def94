import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
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
