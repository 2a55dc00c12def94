import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../server/db/open.js';
import { scratchDatabase, seededRandom } from '../helpers/scratch-db.js';

/*
 * The full-text index holds the items that are not hidden (migration 055), kept by triggers that
 * must tell FTS5 of exactly the rows it holds. After a long random run of writes (new items, new
 * text, hiding and showing, deleting) every word and prefix finds, through the index, the items
 * that plain code finds by reading them, and FTS5's own check of the index passes.
 */

const WORDS = ['lamp', 'lantern', 'light', 'lighthouse', 'harbour', 'heron', 'tide', 'tidal', 'moss', 'morning'];

const scratch = scratchDatabase('search-index');
let db: Db;

before(() => {
  db = scratch();
});

interface Row {
  id: number;
  title: string;
  html_text: string;
  body: string;
  item_hidden: number;
}

/** What a word search should find, by reading every item: visible ones with a word of title or text beginning with it. */
function expected(prefix: string): number[] {
  const rows = db.prepare('SELECT id, title, html_text, body, item_hidden FROM item ORDER BY id DESC').all() as Row[];
  return rows
    .filter((r) => r.item_hidden === 0 && `${r.title} ${r.html_text}`.toLowerCase().split(/[^a-z0-9]+/).some((w) => w.startsWith(prefix)))
    .map((r) => r.id);
}

const found = (prefix: string) =>
  db.prepare('SELECT rowid FROM item_fts WHERE item_fts MATCH ? ORDER BY rowid DESC').pluck().all(`{title html_text} : ("${prefix}"*)`) as number[];

test('the index holds exactly the visible items through every kind of write', () => {
  const pick = seededRandom(55);
  const text = () => Array.from({ length: 1 + pick(4) }, () => WORDS[pick(WORDS.length)]).join(' ');
  const ids: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const kind = pick(10);
    const id = ids.length ? ids[pick(ids.length)]! : 0;
    if (kind <= 3 || !ids.length) {
      const r = db.prepare('INSERT INTO item (uid, mid, title, body, html_text, item_hidden) VALUES (1, ?, ?, ?, ?, ?)')
        .run(`m${i}`, pick(3) ? '' : text(), `[b]${text()}[/b]`, text(), pick(4) === 0 ? 1 : 0);
      ids.push(Number(r.lastInsertRowid));
    } else if (kind <= 5) {
      db.prepare('UPDATE item SET html_text = ?, body = ? WHERE id = ?').run(text(), text(), id);
    } else if (kind === 6) {
      db.prepare('UPDATE item SET title = ? WHERE id = ?').run(text(), id);
    } else if (kind <= 8) {
      db.prepare('UPDATE item SET item_hidden = 1 - item_hidden WHERE id = ?').run(id);
    } else {
      db.prepare('DELETE FROM item WHERE id = ?').run(id);
      ids.splice(ids.indexOf(id), 1);
    }
    if (i % 100 === 99) {
      for (const prefix of ['l', 'li', 'light', 'lighthouse', 'h', 'ti', 'tid', 'mo', 'morning', 'x']) assert.deepEqual(found(prefix), expected(prefix), `"${prefix}" after ${i + 1} writes`);
      db.exec("INSERT INTO item_fts (item_fts) VALUES ('integrity-check')");
    }
  }
  const hidden = (db.prepare('SELECT count(*) AS n FROM item WHERE item_hidden = 1').get() as { n: number }).n;
  assert.ok(hidden > 20 && ids.length > 200, `the run should leave hidden and visible items (${hidden} hidden of ${ids.length})`);
});
