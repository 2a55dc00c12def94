import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';

// A searched word finds every post with a word it begins ("light" finds "lighthouses"), whether the
// hub spells it out as the indexed words it begins (the usual case, read newest first without
// merging every match) or, for a word that begins very many or has other characters than ASCII
// letters and digits, searches it as a prefix; a word of one or two letters is read from a prefix index.

async function post(t: TestHub, status: string): Promise<number> {
  const res = await t.request('/api/statuses/update.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ status }) });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { id: number }).id;
}

async function found(t: TestHub, q: string): Promise<number[]> {
  const res = await t.request(`/api/search.json?count=100&q=${encodeURIComponent(q)}`, { as: 'alice' });
  assert.equal(res.status, 200);
  return ((await res.json()) as { id: number }[]).map((s) => s.id).sort((a, b) => a - b);
}

test('a word finds the posts with words it begins, whichever way it is searched', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const light = await post(t, 'More light please');
    const lighthouse = await post(t, 'The lighthouse at dusk');
    const lighthouses = await post(t, 'Three LIGHTHOUSES on the coast');
    const lighting = await post(t, 'Stage lighting notes');
    const flight = await post(t, 'A flight to nowhere');
    const cafe = await post(t, 'Coffee at the café');
    const keeper = await post(t, 'The lighthouse keeper waves');
    // Thirty words that begin with "zeta": more than the hub spells out, so "zeta" is a prefix.
    const zetas: number[] = [];
    for (let i = 0; i < 30; i++) zetas.push(await post(t, `zeta${String.fromCharCode(97 + (i % 26))}${i} marks the spot`));

    assert.deepEqual(await found(t, 'light'), [light, lighthouse, lighthouses, lighting, keeper]);
    assert.deepEqual(await found(t, 'Lighthouse'), [lighthouse, lighthouses, keeper]);
    assert.deepEqual(await found(t, 'lighthouses'), [lighthouses]);
    assert.deepEqual(await found(t, 'lighthouse keeper'), [keeper], 'every word must match');
    assert.deepEqual(await found(t, 'flight'), [flight]);
    assert.deepEqual(await found(t, 'caf'), [cafe], 'the index folds é; the words it lists are folded too');
    assert.deepEqual(await found(t, 'café'), [cafe], 'a word with other characters is searched as a prefix');
    assert.deepEqual(await found(t, 'zeta'), zetas, 'a word beginning many words is searched as a prefix');
    assert.deepEqual(await found(t, 'zetab1'), [zetas[1]!]);
    assert.deepEqual(await found(t, 'lighthousez'), []);
    // One or two letters are read from FTS5's prefix indexes (migration 055).
    assert.deepEqual(await found(t, 'l'), [light, lighthouse, lighthouses, lighting, keeper]);
    assert.deepEqual(await found(t, 'Li'), [light, lighthouse, lighthouses, lighting, keeper]);
    assert.deepEqual(await found(t, 'A'), [lighthouse, flight, cafe], '"A", "at" and "at"');
    assert.deepEqual(await found(t, 'ca'), [cafe], 'the prefix index folds é too');
    assert.deepEqual(await found(t, 'z'), zetas);
    assert.deepEqual(await found(t, 'st li'), [lighting], 'short words together');

    // The Mastodon API's search reads the same way.
    const masto = bearerFetch(t, await mastodonToken(t, await webLogin(t, 'alice'), { channel: 'alice' }));
    const res = await masto('/api/v2/search?type=statuses&limit=40&q=lighthouse');
    assert.equal(res.status, 200);
    const ids = ((await res.json()) as { statuses: { id: string }[] }).statuses.map((s) => Number(s.id)).sort((a, b) => a - b);
    assert.deepEqual(ids, [lighthouse, lighthouses, keeper]);
  } finally {
    await t.stop();
  }
});
