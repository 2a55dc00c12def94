import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { obtainAccessToken, registerApp } from '../helpers/oauth-client.js';

/** The `twitter` npm client (OAuth 1.0a) reading the home timeline and posting, against the hub. */
const require = createRequire(import.meta.url);
type Client = { get(path: string, params?: object): Promise<any>; post(path: string, params?: object): Promise<any> };
const Twitter = require('twitter') as new (opts: Record<string, string>) => Client;

let t: TestHub;
let client: Client;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const session = await webLogin(t, 'alice');
  const app = await registerApp(session, { name: 'Twitter client', redirect: 'https://app.example/cb' });
  const token = await obtainAccessToken(t, session, app);
  client = new Twitter({ consumer_key: app.key, consumer_secret: app.secret, access_token_key: token.key, access_token_secret: token.secret, rest_base: `${t.url}/api/1.1` });
});
after(() => t.stop());

test('the twitter client posts with statuses/update and reads statuses/home_timeline', async () => {
  const posted = await client.post('statuses/update', { status: 'Hello from the twitter client & co' });
  assert.equal(posted.text, 'Hello from the twitter client & co');
  assert.equal(posted.user.screen_name, 'alice');
  const reply = await client.post('statuses/update', { status: 'and a reply', in_reply_to_status_id: posted.id_str });
  assert.equal(reply.in_reply_to_status_id_str, posted.id_str);
  const home = await client.get('statuses/home_timeline', { count: 5 });
  assert.deepEqual(home.map((s: any) => s.id_str), [reply.id_str, posted.id_str]);
  assert.equal(home[1].user.id_str, posted.user.id_str);
  const me = await client.get('account/verify_credentials', {});
  assert.equal(me.screen_name, 'alice');
  await assert.rejects(client.get('statuses/show', { id: 999999 }), /404/);
});
