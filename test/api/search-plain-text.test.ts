import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listMigrations, migrate, schemaVersion } from '../../server/db/open.js';
import { openSqlite } from '../../server/db/native-binding.js';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';

// Search finds what readers see of a post: its title and text, not the words of its markup (the
// URL of an image, of a link, BBCode tags). Posts written before this (indexed with their raw
// body) are found the same way after the upgrade.

async function post(t: TestHub, as: string, fields: Record<string, string>): Promise<number> {
  const res = await t.request('/api/statuses/update.json', { as, method: 'POST', body: new URLSearchParams(fields) });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { id: number }).id;
}

async function found(t: TestHub, as: string, q: string): Promise<number[]> {
  const res = await t.request(`/api/search.json?q=${encodeURIComponent(q)}`, { as });
  assert.equal(res.status, 200);
  return ((await res.json()) as { id: number }[]).map((s) => s.id);
}

async function posts(t: TestHub) {
  return {
    image: await post(t, 'alice', { status: '[img]https://cdn.example/sunflower-field.jpg[/img] A day in the garden' }),
    link: await post(t, 'alice', { status: 'Read [url=https://example.org/tulips-guide]my notes[/url] today' }),
    titled: await post(t, 'alice', { status: 'Plain words here', title: 'Harvest report' }),
    markdown: await post(t, 'alice', { status: '![a photo](https://cdn.example/marigold.png) and *daisies*', mimetype: 'text/markdown' }),
  };
}

async function assertSearchSeesText(t: TestHub, p: Awaited<ReturnType<typeof posts>>) {
  assert.deepEqual(await found(t, 'alice', 'sunflower'), [], 'a word of an image URL is no match');
  assert.deepEqual(await found(t, 'alice', 'garden'), [p.image]);
  assert.deepEqual(await found(t, 'alice', 'tulips'), [], 'nor a word of a link target');
  assert.deepEqual(await found(t, 'alice', 'notes'), [p.link], 'the link text is');
  assert.deepEqual(await found(t, 'alice', 'url'), [], 'nor the BBCode tags');
  assert.deepEqual(await found(t, 'alice', 'harvest'), [p.titled], 'the title is seen');
  assert.deepEqual(await found(t, 'alice', 'marigold'), [], 'nor a Markdown image URL');
  assert.deepEqual(await found(t, 'alice', 'daisies'), [p.markdown]);
  assert.deepEqual(await found(t, 'alice', 'cdn'), []);
}

test('search matches the title and the text shown, never the markup around them', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const p = await posts(t);
    await assertSearchSeesText(t, p);
    const edited = await t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: new URLSearchParams({ post_id: String(p.link), body: 'Read [url=https://example.org/roses]the rose notes[/url]' }) });
    assert.equal(edited.status, 200);
    assert.deepEqual(await found(t, 'alice', 'rose'), [p.link], 'an edit is searched in its new text');
    assert.deepEqual(await found(t, 'alice', 'roses'), [], 'and not its new link');
  } finally {
    await t.stop();
  }
});

test('posts written before the upgrade are searched by their text after it', async () => {
  const t = await startHub({ channels: ['alice'] });
  const dataDir = t.dataDir;
  let p: Awaited<ReturnType<typeof posts>>;
  try {
    p = await posts(t);
  } finally {
    await t.hub.close();
  }
  // The index as it was before (migration 001: title and raw body), at the schema version before.
  const db = openSqlite(join(dataDir, 'hearth.db'), { readonly: false });
  db.exec(`
    DROP TRIGGER item_fts_insert; DROP TRIGGER item_fts_delete; DROP TRIGGER item_fts_update; DROP TABLE item_fts;
    CREATE VIRTUAL TABLE item_fts USING fts5 (title, body, content = 'item', content_rowid = 'id', tokenize = 'unicode61');
    CREATE TRIGGER item_fts_insert AFTER INSERT ON item BEGIN INSERT INTO item_fts (rowid, title, body) VALUES (new.id, new.title, new.body); END;
    CREATE TRIGGER item_fts_delete AFTER DELETE ON item BEGIN INSERT INTO item_fts (item_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body); END;
    CREATE TRIGGER item_fts_update AFTER UPDATE OF title, body ON item BEGIN
      INSERT INTO item_fts (item_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
      INSERT INTO item_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
    END;
    INSERT INTO item_fts (item_fts) VALUES ('rebuild');
  `);
  assert.equal((db.prepare(`SELECT count(*) AS n FROM item_fts WHERE item_fts MATCH '"sunflower"'`).get() as { n: number }).n, 1, 'the old index saw the markup');
  // Migration 043 runs on it as on a database of version 42; the later ones are already there.
  const latest = schemaVersion(db);
  db.pragma('user_version = 42');
  assert.deepEqual(migrate(db, listMigrations().filter((m) => m.version === 43)), [43]);
  db.pragma(`user_version = ${latest}`);
  db.close();
  const again = await startHub({ dataDir });
  try {
    await assertSearchSeesText(again, p!);
  } finally {
    await again.stop();
  }
});

test('search text with full-text operators, column names or quotes is words, in both search APIs; no text is a 400', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const p = await posts(t);
    const masto = bearerFetch(t, await mastodonToken(t, await webLogin(t, 'alice'), { channel: 'alice' }));
    for (const q of ['body : sunflower', '{body} : sunflower', 'body:sunflower', 'NEAR(sunflower garden)', '"sunflower', 'sunflower*', '-garden', '^garden', 'garden OR sunflower', '(', '"', '*', ':']) {
      const compat = await t.request(`/api/search.json?q=${encodeURIComponent(q)}`, { as: 'alice' });
      assert.equal(compat.status, 200, `${q}: ${await compat.clone().text()}`);
      const ids = ((await compat.json()) as { id: number }[]).map((s) => s.id);
      assert.ok(!ids.some((id) => id !== p.image), `${q}: only the post whose text has these words, if any`);
      const v2 = await masto(`/api/v2/search?type=statuses&q=${encodeURIComponent(q)}`);
      assert.equal(v2.status, 200, `${q}: ${await v2.clone().text()}`);
    }
    assert.deepEqual(await found(t, 'alice', 'body : sunflower'), [], 'a column name in the text does not reach the markup');
    assert.deepEqual(await found(t, 'alice', '"garden"'), [p.image]);
    for (const q of ['', '   ']) {
      const res = await t.request(`/api/search.json?q=${encodeURIComponent(q)}`, { as: 'alice' });
      assert.equal(res.status, 400);
      assert.match(await res.text(), /q parameter is required/);
    }
    const long = await t.request(`/api/search.json?q=${'a'.repeat(501)}`, { as: 'alice' });
    assert.equal(long.status, 400);
  } finally {
    await t.stop();
  }
});
