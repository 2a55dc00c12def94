import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../server/db/open.js';
import { scratchDatabase } from '../helpers/scratch-db.js';
import { searchXchans } from '../../server/store/xchan-lookup.js';

/*
 * People are found through a trigram index when the term has three characters or more (migration
 * 056). What is found must be what the rules say, written out here in plain code: the display name
 * or the nickname contains the term, or the address or the profile URL is the term, compared with
 * SQLite's lower() (ASCII letters only); exact matches first, then this hub's channels.
 */

interface Person {
  id: number;
  name: string;
  addr: string;
  url: string;
  local: boolean;
  deleted: boolean;
}

const PEOPLE: Omit<Person, 'id'>[] = [
  { name: 'Ann Smith', addr: 'ann@one.example', url: 'https://one.example/u/ann', local: false, deleted: false },
  { name: 'Annabel Lee', addr: 'annabel@two.example', url: 'https://two.example/u/annabel', local: false, deleted: false },
  { name: 'Joanna', addr: 'jo@hearth.local', url: 'http://hearth.local/channel/jo', local: true, deleted: false },
  { name: 'ÄNNE Müller', addr: 'aenne@three.example', url: 'https://three.example/@aenne', local: false, deleted: false },
  { name: 'änne klein', addr: 'klein@three.example', url: 'https://three.example/@klein', local: false, deleted: false },
  { name: 'Bob "the builder"', addr: 'bob@builders.example', url: 'https://builders.example/bob', local: false, deleted: false },
  { name: 'Carol', addr: 'smithy@four.example', url: 'https://four.example/smithy', local: false, deleted: false },
  { name: 'Gone Smith', addr: 'gone@one.example', url: 'https://one.example/u/gone', local: false, deleted: true },
  { name: 'Dave', addr: 'dave@annex.example', url: 'https://annex.example/dave', local: false, deleted: false },
  { name: '', addr: '', url: 'https://bare.example/actor', local: false, deleted: false },
];

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const nick = (addr: string) => (addr.includes('@') ? addr.slice(0, addr.indexOf('@')) : '');

function expected(people: Person[], term: string, limit: number): number[] {
  const t = asciiLower(term);
  const exact = (p: Person) => asciiLower(p.name) === t || asciiLower(p.addr) === t || asciiLower(nick(p.addr)) === t;
  return people
    .filter((p) => !p.deleted && (asciiLower(p.name).includes(t) || asciiLower(nick(p.addr)).includes(t) || asciiLower(p.addr) === t || p.url === term))
    .sort((a, b) => Number(exact(b)) - Number(exact(a)) || Number(b.local) - Number(a.local) || a.id - b.id)
    .slice(0, limit)
    .map((p) => p.id);
}

const scratch = scratchDatabase('people-search');
let db: Db;
let people: Person[];

before(() => {
  db = scratch();
  people = PEOPLE.map((p, i) => {
    const hash = `hash-${i}`;
    const id = Number(db.prepare('INSERT INTO xchan (xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_deleted) VALUES (?, ?, ?, ?, ?)')
      .run(hash, p.name, p.addr, p.url, p.deleted ? 1 : 0).lastInsertRowid);
    if (p.local) db.prepare('INSERT INTO channel (channel_account_id, channel_address, channel_hash) VALUES (1, ?, ?)').run(nick(p.addr), hash);
    return { ...p, id };
  });
});

const found = (term: string, limit = 40) => searchXchans(db, term, limit).map((x) => x.xchan_id);

const TERMS = [
  'ann', 'ANN', 'Ann', 'anna', 'annabel', 'nne', 'änne', 'ÄNNE', 'Änne', 'smith', 'SMITH', 'mit', 'jo', 'an', 'a', 'oan',
  'ann@one.example', 'ANN@ONE.EXAMPLE', 'annex', 'one.example', '"the', 'the builder', '"the builder"', 'bob "the',
  'https://bare.example/actor', 'https://one.example/u/ann', 'HTTPS://ONE.EXAMPLE/U/ANN', 'zzz', 'gone', '%', 'a_n', '*', 'ann OR bob', 'NEAR(ann)',
];

test('people are found by the rules, whether through the trigram index or not', () => {
  for (const term of TERMS) assert.deepEqual(found(term), expected(people, term, 40), `"${term}"`);
  assert.deepEqual(found('ann', 1), expected(people, 'ann', 1), 'the limit applies after the order');
  assert.ok(found('ann').length >= 3, 'the terms should find people');
});

test('the index follows renames, new addresses and deletions', () => {
  const ann = people[0]!;
  db.prepare('UPDATE xchan SET xchan_name = ?, xchan_addr = ? WHERE xchan_id = ?').run('Hannah Jones', 'hannah@five.example', ann.id);
  ann.name = 'Hannah Jones';
  ann.addr = 'hannah@five.example';
  for (const term of ['ann', 'smith', 'jones', 'hannah@five.example', 'five.example']) assert.deepEqual(found(term), expected(people, term, 40), `"${term}" after a rename`);
  db.prepare('DELETE FROM xchan WHERE xchan_id = ?').run(people[1]!.id);
  people.splice(1, 1);
  assert.deepEqual(found('annabel'), [], 'a deleted identity is not found');
  assert.deepEqual(found('ann'), expected(people, 'ann', 40));
});
