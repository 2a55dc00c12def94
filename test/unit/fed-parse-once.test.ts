import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Activity, Create, Follow, Note } from '@fedify/vocab';
import { guardedDocumentLoader } from '../../server/federation/fetch-documents.js';
import { parseActivitiesOnce } from '../../server/federation/parse-once.js';

const AS = 'https://www.w3.org/ns/activitystreams';
const create = () => ({
  '@context': AS,
  id: 'https://elsewhere.example/activities/1',
  type: 'Create',
  actor: 'https://elsewhere.example/users/ap1',
  object: { id: 'https://elsewhere.example/notes/1', type: 'Note', content: '<p>Hello</p>', attributedTo: 'https://elsewhere.example/users/ap1' },
});
const follow = () => ({ '@context': AS, id: 'https://elsewhere.example/activities/2', type: 'Follow', actor: 'https://elsewhere.example/users/ap1', object: 'https://hub.example/channel/alice' });
const noFetch = async (url: string): Promise<never> => {
  throw new Error(`no fetch in this test: ${url}`);
};

test('an activity read twice from the same object is read once; every kind still reads as itself', async () => {
  parseActivitiesOnce();
  const options = { contextLoader: guardedDocumentLoader({ insecure: false }), documentLoader: noFetch };
  const json = create();
  const first = await Activity.fromJsonLd(json, options);
  assert.ok(first instanceof Create);
  assert.equal(await Activity.fromJsonLd(json, options), first, 'the same object, the same loader: the first reading');
  const note = await (first as Create).getObject();
  assert.ok(note instanceof Note);
  assert.equal(note.content?.toString(), '<p>Hello</p>');

  const again = await Activity.fromJsonLd(json, { ...options, documentLoader: async (url: string) => noFetch(url) });
  assert.notEqual(again, first, 'another loader: read anew');
  assert.notEqual(await Activity.fromJsonLd(create(), options), first, 'another object: read anew');

  // Each kind reads its common part through Activity.fromJsonLd (as super.fromJsonLd).
  const f = await Activity.fromJsonLd(follow(), options);
  assert.ok(f instanceof Follow);
  assert.equal(f.objectId?.href, 'https://hub.example/channel/alice');
  assert.ok((await Follow.fromJsonLd(follow(), options)) instanceof Follow);
});
