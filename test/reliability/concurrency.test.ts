import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { connect } from '../../server/services/connections.js';
import { createItem } from '../../server/services/items.js';
import { getItem, getThread } from '../../server/store/items.js';
import { listAttach } from '../../server/store/attachments.js';
import { getChannelByNick } from '../../server/store/channels.js';
import { basic, PASSWORD, startHub } from '../helpers/hub.js';
import { tinyPng } from '../helpers/hostile.js';

// 20 clients writing at once, while another process (the CLI) writes to the same database: no
// request may fail with SQLITE_BUSY (or anything else), and no write may be lost.

const CLIENTS = 20;
/** Channels the clients act as (keys are slow to generate, so several clients share one). */
const CHANNELS = 5;
const ROUNDS = 3;
const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

test('20 clients writing at once see no SQLITE_BUSY and lose no update', async () => {
  const t = await startHub({ channels: ['alice'] });
  const counts = { requests: 0, cliWrites: 0 };
  try {
    const channels = ['alice'];
    for (let i = 1; i < CHANNELS; i++) {
      const ch = await t.addChannel(`client${i}`);
      connect(t.hub, ch, t.channels.alice!.channel_hash);
      connect(t.hub, t.channels.alice!, ch.channel_hash);
      channels.push(ch.channel_address);
    }
    const nicks = Array.from({ length: CLIENTS }, (_, c) => channels[c % CHANNELS]!);
    const top = createItem(t.hub, t.channels.alice!, { body: 'comment here' });
    const failures: string[] = [];
    const posts = new Map<string, number>();
    const comments = new Set<number>();
    const uploads: string[] = [];

    const call = async (as: string, path: string, body: FormData | URLSearchParams) => {
      counts.requests++;
      const res = await fetch(t.url + path, { method: 'POST', headers: { authorization: basic(as) }, body });
      const text = await res.text();
      if (!res.ok || /SQLITE_BUSY|database is locked/i.test(text)) failures.push(`${as} ${path}: ${res.status} ${text.slice(0, 200)}`);
      return res.ok ? JSON.parse(text) : undefined;
    };
    const client = async (nick: string, c: number) => {
      for (let r = 0; r < ROUNDS; r++) {
        const marker = `c${c} r${r}`;
        const post = await call(nick, '/api/z/1.0/item/update', new URLSearchParams({ body: `post ${marker}` }));
        if (post) posts.set(`post ${marker}`, Number(post.item_id));
        const status = await call(nick, '/api/statuses/update.json', new URLSearchParams({ status: `status ${marker}` }));
        if (status) posts.set(`status ${marker}`, status.id);
        const comment = await call(nick, '/api/z/1.0/item/update', new URLSearchParams({ body: `comment ${marker}`, parent: String(top.id) }));
        if (comment) comments.add(Number(comment.item_id));
      }
      // Every client uploads a file of the same name into alice's storage: each must get its own name.
      const form = new FormData();
      form.append('body', `upload c${c}`);
      form.append('media', new Blob([tinyPng()], { type: 'image/png' }), 'same-name.png');
      const up = await call('alice', '/api/z/1.0/item/update', form);
      if (up) uploads.push(up.item_id);
    };
    // Another process writing to the same database meanwhile, as `hearth channel create` does.
    const cli = async (n: number) => {
      const child = spawn(process.execPath, [BIN, 'channel', 'create', '--nick', `cli${n}`, '--password', PASSWORD, '--data', t.dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const [code] = await once(child, 'exit');
      counts.cliWrites++;
      if (code !== 0) failures.push(`channel create cli${n}: exit ${code} ${out}`);
    };
    await Promise.all([...nicks.map((n, c) => client(n, c)), cli(1), cli(2)]);

    assert.deepEqual(failures, []);
    assert.equal(posts.size, CLIENTS * ROUNDS * 2);
    for (const [marker, id] of posts) assert.ok(getItem(t.hub.db, id)?.body.includes(marker), `${marker} was lost`);
    const thread = getThread(t.hub.db, top.id).filter((i) => i.id !== top.id);
    assert.equal(thread.length, CLIENTS * ROUNDS, 'comments were lost');
    assert.deepEqual(new Set(thread.map((i) => i.id)), comments);
    const latest = thread.map((i) => i.created).sort().pop()!;
    assert.ok(getItem(t.hub.db, top.id)!.commented >= latest, 'the thread\'s commented time went backwards');
    assert.equal(uploads.length, CLIENTS);
    const names = listAttach(t.hub.db, t.channels.alice!.channel_id, {}, { limit: -1 }).filter((a) => !a.is_dir && /^same-name/.test(a.filename)).map((a) => `${a.folder}/${a.filename}`);
    assert.equal(new Set(names).size, CLIENTS, `uploads of the same name collided: ${names.join(', ')}`);
    assert.ok(getChannelByNick(t.hub.db, 'cli1') && getChannelByNick(t.hub.db, 'cli2'), 'the other process\'s writes were lost');
    console.log(`concurrency: ${CLIENTS} clients (as ${CHANNELS} channels) sent ${counts.requests} writes at once while ${counts.cliWrites} CLI processes wrote to the same database; all acknowledged and present`);
  } finally {
    await t.stop();
  }
});
