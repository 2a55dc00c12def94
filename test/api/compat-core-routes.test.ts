import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, parseXml } from '../helpers/compat.js';

/** Every path of the account/timeline/status/user/graph/list part of the compat API, with the seed's methods and auth marks. */
const ROUTES: { path: string; methods: string[] | '*'; auth: boolean }[] = [
  { path: 'account/verify_credentials', methods: '*', auth: true },
  { path: 'account/rate_limit_status', methods: '*', auth: true },
  { path: 'account/update_profile', methods: ['POST'], auth: true },
  { path: 'statuses/home_timeline', methods: '*', auth: true },
  { path: 'statuses/friends_timeline', methods: '*', auth: true },
  { path: 'statuses/public_timeline', methods: '*', auth: true },
  { path: 'statuses/networkpublic_timeline', methods: '*', auth: true },
  { path: 'statuses/user_timeline', methods: '*', auth: true },
  { path: 'statuses/mentions', methods: '*', auth: true },
  { path: 'statuses/replies', methods: '*', auth: true },
  { path: 'conversation/show', methods: '*', auth: true },
  { path: 'compat/conversation', methods: '*', auth: true },
  { path: 'lists/statuses', methods: '*', auth: true },
  { path: 'statuses/update', methods: ['POST'], auth: true },
  { path: 'statuses/update_with_media', methods: ['POST'], auth: true },
  { path: 'statuses/destroy', methods: ['POST', 'DELETE'], auth: true },
  { path: 'statuses/retweet', methods: ['POST', 'PUT'], auth: true },
  { path: 'statuses/show', methods: '*', auth: true },
  { path: 'search', methods: '*', auth: true },
  { path: 'search/tweets', methods: '*', auth: true },
  { path: 'favorites', methods: '*', auth: true },
  { path: 'favorites/create', methods: ['POST', 'PUT'], auth: true },
  { path: 'favorites/destroy', methods: ['POST', 'DELETE'], auth: true },
  { path: 'users/show', methods: '*', auth: false },
  { path: 'users/lookup', methods: '*', auth: true },
  { path: 'users/search', methods: '*', auth: false },
  { path: 'externalprofile/show', methods: '*', auth: false },
  { path: 'followers/ids', methods: '*', auth: true },
  { path: 'friends/ids', methods: '*', auth: true },
  { path: 'statuses/followers', methods: '*', auth: true },
  { path: 'statuses/friends', methods: '*', auth: true },
  { path: 'friendships/incoming', methods: '*', auth: true },
  { path: 'friendships/create', methods: ['POST'], auth: true },
  { path: 'friendships/destroy', methods: ['POST', 'DELETE'], auth: true },
  { path: 'friendships/show', methods: ['GET'], auth: true },
  { path: 'blocks/list', methods: '*', auth: true },
  { path: 'lists/ownerships', methods: '*', auth: true },
  { path: 'lists/create', methods: ['POST'], auth: true },
  { path: 'lists/update', methods: ['POST'], auth: true },
  { path: 'lists/destroy', methods: ['POST'], auth: true },
  { path: 'saved_searches/list', methods: '*', auth: true },
  { path: 'media/upload', methods: ['GET', 'POST', 'PUT'], auth: true },
  { path: 'compat/config', methods: '*', auth: false },
  { path: 'compat/version', methods: '*', auth: false },
  // Twitter v1.1 paths Friendica lacks.
  { path: 'favorites/list', methods: '*', auth: true },
  { path: 'lists/list', methods: '*', auth: true },
  { path: 'lists/show', methods: '*', auth: true },
  { path: 'lists/members', methods: '*', auth: true },
  { path: 'lists/members/create', methods: ['POST'], auth: true },
  { path: 'lists/members/destroy', methods: ['POST', 'DELETE'], auth: true },
  { path: 'lists/subscriptions', methods: '*', auth: true },
  { path: 'application/rate_limit_status', methods: ['GET'], auth: true },
  { path: 'statuses/unretweet', methods: ['POST'], auth: true },
  { path: 'statuses/retweets', methods: ['GET'], auth: true },
  { path: 'statuses/lookup', methods: ['GET', 'POST'], auth: true },
  { path: 'friends/list', methods: '*', auth: true },
  { path: 'followers/list', methods: '*', auth: true },
  { path: 'friendships/lookup', methods: ['GET'], auth: true },
  { path: 'account/settings', methods: ['GET', 'POST'], auth: true },
  { path: 'help/configuration', methods: ['GET'], auth: true },
  { path: 'direct_messages/events/list', methods: ['GET'], auth: true },
  { path: 'direct_messages/events/show', methods: ['GET'], auth: true },
  { path: 'direct_messages/events/new', methods: ['POST'], auth: true },
  { path: 'direct_messages/events/destroy', methods: ['DELETE', 'POST'], auth: true },
  { path: 'mutes/users/ids', methods: '*', auth: true },
  { path: 'mutes/users/list', methods: '*', auth: true },
  { path: 'blocks/ids', methods: '*', auth: true },
];

const ALL = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice'] });
});
after(() => t.stop());

for (const prefix of ['/api', '/api/1.1']) {
  for (const r of ROUTES) {
    const refused = r.methods === '*' ? [] : ALL.filter((m) => !(r.methods as string[]).includes(m) && !(m === 'HEAD'));
    const accepted = r.methods === '*' ? ['GET', 'POST', 'DELETE'] : r.methods;

    if (refused.length) {
      test(`${prefix}/${r.path}: ${refused.join(', ')} answer 405 with Allow`, async () => {
        for (const method of refused) {
          const a = await call(t, `${prefix}/${r.path}.json`, { as: 'alice', method });
          assert.equal(a.status, 405, `${method} ${r.path}: ${a.text}`);
          assert.match(a.res.headers.get('allow') ?? '', new RegExp(`\\b${(r.methods as string[])[0]}\\b`));
          assert.equal(a.body.code, '405 Method Not Allowed');
        }
      });
    }

    test(`${prefix}/${r.path}: ${r.auth ? '401 without credentials' : 'answers anonymous callers'}`, async () => {
      for (const method of accepted) {
        const a = await call(t, `${prefix}/${r.path}.json`, { method });
        if (r.auth) {
          assert.equal(a.status, 401, `${method} ${r.path}: ${a.text}`);
          assert.match(a.res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
          assert.equal(a.body.code, '401 Unauthorized');
          assert.equal(a.body.request, `${prefix.slice(1)}/${r.path}.json`);
        } else {
          assert.notEqual(a.status, 401, `${method} ${r.path}: ${a.text}`);
          assert.ok(a.status < 500, `${method} ${r.path}: ${a.status} ${a.text}`);
        }
      }
    });
  }
}

test('errors in XML have the status root with error, code and request', async () => {
  const a = await call(t, '/api/statuses/home_timeline.xml');
  assert.equal(a.status, 401);
  const doc = parseXml(a.text);
  assert.equal(doc.status.code, '401 Unauthorized');
  assert.equal(doc.status.request, 'api/statuses/home_timeline.xml');
  assert.equal(typeof doc.status.error, 'string');
});

test('a wrong password is refused with 401', async () => {
  const bad = await t.request('/api/account/verify_credentials.json', { as: 'alice', password: 'wrong' });
  assert.equal(bad.status, 401);
  assert.match(bad.headers.get('www-authenticate') ?? '', /^Basic/);
});
