import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { NotificationWatcher } from '../../electron/lib/notification-watcher.js';
import { noticeFor, noticePath } from '../../electron/lib/notice.js';
import type { DesktopNotice } from '../../electron/lib/notice.js';
import { insertPlainNotification } from '../../server/store/notify-watch.js';

/** A notifier that records what it was asked to show and can be awaited. */
function recorder() {
  const shown: DesktopNotice[] = [];
  const signal = new EventEmitter();
  return {
    shown,
    notify(n: DesktopNotice) {
      shown.push(n);
      signal.emit('shown', n);
    },
    next: () => once(signal, 'shown').then(([n]) => n as DesktopNotice),
  };
}

describe('notification watcher', () => {
  let t: TestHub;
  let alice: number;
  let watchers: NotificationWatcher[] = [];
  const watch = (opts: Partial<ConstructorParameters<typeof NotificationWatcher>[0]> & { notify(n: DesktopNotice): void }) => {
    const w = new NotificationWatcher({ db: t.hub.db, events: t.hub.events, pollMs: 60_000, ...opts });
    watchers.push(w);
    w.start();
    return w;
  };
  const seen = (id: number) => t.hub.db.prepare('UPDATE notify SET seen = 1 WHERE id = ?').run(id);

  before(async () => {
    t = await startHub({ channels: ['alice', 'bob'] });
    alice = t.channels.alice!.channel_id;
  });
  beforeEach(() => {
    for (const w of watchers) w.stop();
    watchers = [];
  });
  after(async () => {
    for (const w of watchers) w.stop();
    await t.stop();
  });

  it('shows a notification created in the hub exactly once, even when told twice', async () => {
    const r = recorder();
    const w = watch({ notify: r.notify });
    const shown = r.next();
    const id = insertPlainNotification(t.hub.db, { uid: alice, xname: 'Bob', msg: '[zrl=http://x/bob]Bob[/zrl] commented on [b]your post[/b]', iid: 7 });
    t.hub.events.emit('notification', alice, id);
    const n = await shown;
    assert.deepEqual(n, { id, channelId: alice, title: 'Bob', body: 'Bob commented on your post', path: '/item/7' });
    t.hub.events.emit('notification', alice, id);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    w.check();
    w.check();
    assert.equal(r.shown.length, 1);
  });

  it('shows a mention posted through the API to the mentioned channel, once', async () => {
    const r = recorder();
    const w = watch({ notify: r.notify });
    const shown = r.next();
    const res = await t.request('/api/statuses/update.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ status: 'Dinner at mine, @bob?' }) });
    assert.equal(res.status, 200);
    const n = await shown;
    assert.equal(n.channelId, t.channels.bob!.channel_id);
    assert.match(n.body, /Alice mentioned you/);
    assert.match(n.path, /^\/item\/\d+$/);
    await new Promise((resolve) => setImmediate(resolve));
    w.check();
    assert.equal(r.shown.length, 1);
  });

  it('finds notifications written without an event by polling', async () => {
    const r = recorder();
    watch({ notify: r.notify, pollMs: 10 });
    const shown = r.next();
    const id = insertPlainNotification(t.hub.db, { uid: t.channels.bob!.channel_id, msg: 'Alice liked your post', iid: 3 });
    const n = await shown;
    assert.equal(n.id, id);
    assert.equal(n.channelId, t.channels.bob!.channel_id);
    assert.equal(n.title, 'Hearth');
  });

  it('does not repeat what existed before it started, nor what was already seen', () => {
    insertPlainNotification(t.hub.db, { uid: alice, msg: 'old news' });
    const r = recorder();
    const w = watch({ notify: r.notify });
    seen(insertPlainNotification(t.hub.db, { uid: alice, msg: 'read in the UI at once' }));
    w.check();
    assert.equal(r.shown.length, 0);
    const id = insertPlainNotification(t.hub.db, { uid: alice, msg: 'fresh' });
    w.check();
    assert.deepEqual(r.shown.map((n) => n.id), [id]);
  });

  it('sums up a burst in one notice that opens the list', () => {
    const r = recorder();
    const w = watch({ notify: r.notify, maxPerCheck: 3 });
    const ids = [1, 2, 3, 4, 5].map((i) => insertPlainNotification(t.hub.db, { uid: alice, msg: `n${i}` }));
    w.check();
    assert.deepEqual(r.shown, [{ id: ids[4], channelId: alice, title: 'Hearth', body: '5 new notifications', path: '/notifications' }]);
    const three = [1, 2, 3].map((i) => insertPlainNotification(t.hub.db, { uid: alice, msg: `m${i}` }));
    w.check();
    assert.deepEqual(r.shown.slice(1).map((n) => n.id), three);
  });

  it('reports the unseen count when it changes, including seen-marks made elsewhere', () => {
    t.hub.db.prepare('UPDATE notify SET seen = 1').run();
    const counts: number[] = [];
    const w = watch({ notify() {}, onUnseenCount: (n) => counts.push(n) });
    assert.deepEqual(counts, [0]);
    const a = insertPlainNotification(t.hub.db, { uid: alice, msg: 'a' });
    insertPlainNotification(t.hub.db, { uid: t.channels.bob!.channel_id, msg: 'b' });
    w.check();
    w.check();
    seen(a);
    w.check();
    assert.deepEqual(counts, [0, 2, 1]);
  });

  it('keeps going when showing one notice fails', () => {
    let calls = 0;
    const w = watch({
      notify() {
        calls++;
        throw new Error('no notification daemon');
      },
    });
    insertPlainNotification(t.hub.db, { uid: alice, msg: 'x' });
    insertPlainNotification(t.hub.db, { uid: alice, msg: 'y' });
    w.check();
    assert.equal(calls, 2);
  });

  it('stops listening when stopped', async () => {
    const r = recorder();
    // The hub listens itself (Web Push, the streams): only the watcher's own listener must go.
    const before = t.hub.events.listenerCount('notification');
    const w = watch({ notify: r.notify });
    w.stop();
    const id = insertPlainNotification(t.hub.db, { uid: alice, msg: 'after stop' });
    t.hub.events.emit('notification', alice, id);
    await new Promise((resolve) => setImmediate(resolve));
    w.check();
    assert.deepEqual(r.shown, []);
    assert.equal(t.hub.events.listenerCount('notification'), before);
  });
});

describe('desktop notices', () => {
  const row = { id: 1, uid: 2, xname: '', msg: '', link: '', iid: 0, parent: 0, ntype: 0, otype: 'item', created: '' };
  it('lead to the item, the connection, the conversation or the list', () => {
    assert.equal(noticePath({ iid: 12, otype: 'item', link: 'http://h/display/x' }), '/item/12');
    assert.equal(noticePath({ iid: 0, otype: 'item', link: '' }), '/notifications');
    assert.equal(noticePath({ iid: 0, otype: 'intro', link: 'http://192.168.1.5:8480/connections/7' }), '/connections/7');
    assert.equal(noticePath({ iid: 0, otype: 'intro', link: 'http://h/connections' }), '/connections');
    assert.equal(noticePath({ iid: 0, otype: 'intro', link: 'not a url' }), '/connections');
    assert.equal(noticePath({ iid: 5, otype: 'mail', link: 'http://h:8480/mail/5' }), '/mail/5');
    assert.equal(noticePath({ iid: 0, otype: 'mail', link: 'http://elsewhere/x' }), '/messages');
  });
  it('show plain, bounded text', () => {
    const n = noticeFor({ ...row, msg: `[url=http://x/]Bob[/url] wrote [i]${'long '.repeat(100)}[/i]` });
    assert.ok(n.body.startsWith('Bob wrote long long'), n.body);
    assert.ok(!/[[\]<>]/.test(n.body), n.body);
    assert.ok(n.body.length <= 200);
    assert.ok(n.body.endsWith('…'));
    assert.equal(noticeFor(row).body, 'New notification');
  });
});
