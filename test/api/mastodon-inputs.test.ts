import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { mastodonApiV1, mastodonApiV2 } from '../../server/api/mastodon/api.js';
import { acceptedMethods } from '../helpers/routes.js';

// Every Mastodon route answers wrong input with a 4xx in Mastodon's error shape, never a 500.
let t: TestHub;
let api: ReturnType<typeof bearerFetch>;
before(async () => {
  t = await startHub({ channels: ['alice'] });
  api = bearerFetch(t, await mastodonToken(t, await webLogin(t, 'alice'), { channel: 'alice' }));
  await api('/api/v1/statuses', { method: 'POST', json: { status: 'something to act on' } });
});
after(() => t.stop());

const IDS = ['1', 'abc', '99999999999', '-1', '1.5'];
const QUERY = '?limit=abc&max_id=x&since_id=-5&min_id=%00&id[]=zz&types[]=nope&exclude_types=1&tag=&list=x&q=%22&acct=@@&pinned=maybe&local=2&timeline[]=x';
const BODIES: unknown[] = [
  { status: 123, media_ids: 'x', visibility: 'nope', in_reply_to_id: 'abc', sensitive: 'perhaps', poll: { options: [] } },
  { status: '', media_ids: ['1', '2', '3', '4', '5'], spoiler_text: 'x'.repeat(5000) },
  { title: '', account_ids: ['abc'], display_name: 'x'.repeat(500), fields_attributes: 'not json', focus: '9,9', description: 7 },
  { home: { last_read_id: 'x' }, notifications: 'nope' },
];

test('no route answers 500 to wrong ids, parameters or bodies', async () => {
  let asked = 0;
  for (const [prefix, def] of [['/api/v1', mastodonApiV1], ['/api/v2', mastodonApiV2]] as const) {
    for (const route of def.routes) {
      if (route.path.startsWith('streaming/') && route.path !== 'streaming/health') continue;
      const paths = route.path.includes(':') ? IDS.map((id) => route.path.replace(/:\w+/g, id)) : [route.path];
      for (const path of paths) {
        for (const method of acceptedMethods(route)) {
          const bodies = method === 'GET' ? [undefined] : BODIES;
          for (const json of bodies) {
            const res = await api(`${prefix}/${path}${QUERY}`, { method, json });
            const text = await res.text();
            asked++;
            assert.ok(res.status < 500, `${method} ${prefix}/${path} ${JSON.stringify(json)}: ${res.status} ${text.slice(0, 200)}`);
            if (res.status >= 400) assert.equal(typeof JSON.parse(text).error, 'string', `${method} ${prefix}/${path}: ${text.slice(0, 200)}`);
          }
        }
      }
    }
  }
  assert.ok(asked > 200, `asked ${asked}`);
});
