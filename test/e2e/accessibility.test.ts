import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { upsertRemoteActor } from '../../server/store/federation.js';
import { getXchan } from '../../server/store/xchans.js';
import { connect as connectService } from '../../server/services/connections.js';
import { receivePost } from '../../server/services/received-items.js';
import { PUBLIC_ACL } from '../../server/services/acl.js';
import { nowDb } from '../../server/util/time.js';
import { axeViolations, describeViolations, type AxeViolation } from '../helpers/axe.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connectMutually, connectionId, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { DESKTOP, openUi, PHONE, pngOf, SCREENSHOTS, type Ui } from '../helpers/ui.js';
import { uiRoutePatterns } from '../helpers/ui-routes.js';

// Issue "owner's UI for daily use", done when: axe reports no serious or critical violation on any
// screen. Every screen the router knows is visited with realistic data, at desktop and phone width.

/** Rules that item 15 of the issue named, checked whatever axe rates their impact. */
const NAMED_RULES = new Set(['heading-order', 'landmark-unique', 'page-has-heading-one', 'label-content-name-mismatch', 'color-contrast']);
const fails = (v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical' || NAMED_RULES.has(v.id);

interface Data {
  postId: string;
  postMid: string;
  album: string;
  photoId: string;
  bobPhotoId: string;
  gid: string;
  bobAbookId: string;
  remoteAbookId: string;
  remoteNick: string;
  messageId: string;
}

interface Screen {
  /** The router's pattern this visit covers (renderer/src/App.tsx). */
  route: string;
  url: (d: Data) => string;
  /** Where the page ends up (the hub's links redirect to the screen they name). */
  lands?: RegExp;
  /** Something to do once there, to check a state of the screen (an open menu, a dialog). */
  then?: (page: Page) => Promise<void>;
  /** Failed requests the screen makes on purpose (it shows that something is missing). */
  expects?: RegExp;
}

const SCREENS: Screen[] = [
  { route: '/', url: () => '/' },
  { route: '/', url: () => '/', then: openChannelMenu },
  { route: '/', url: () => '/', then: newPostsArrive },
  { route: '/stream', url: () => '/stream', then: openAudienceAndPreview },
  { route: '/stream', url: () => '/stream', then: attachPhoto },
  { route: '/compose', url: () => '/compose' },
  { route: '/item/:id', url: (d) => `/item/${d.postId}` },
  { route: '/item/:id', url: (d) => `/item/${d.postId}`, then: openDeleteDialog },
  { route: '/photos', url: () => '/photos' },
  { route: '/photos/album/:album', url: (d) => `/photos/album/${encodeURIComponent(d.album)}` },
  { route: '/photos/album/:album', url: (d) => `/photos/album/${encodeURIComponent(d.album)}?photo=${d.photoId}`, then: (page) => page.getByRole('dialog').locator('img').first().waitFor() },
  { route: '/files', url: () => '/files' },
  { route: '/files', url: () => '/files/Recipes' },
  { route: '/files', url: () => '/files', then: openAlbumDeleteDialog },
  { route: '/files', url: () => `/files/${thisMonth()}`, then: (page) => openPreview(page, 'roses.png') },
  { route: '/groups', url: () => '/groups' },
  { route: '/groups/:gid', url: (d) => `/groups/${d.gid}` },
  { route: '/notifications', url: () => '/notifications' },
  { route: '/messages', url: () => '/messages' },
  { route: '/messages/:nick', url: () => '/messages/bob' },
  { route: '/search', url: () => '/search' },
  { route: '/search', url: () => '/search?q=garden' },
  { route: '/search', url: (d) => `/search?q=${encodeURIComponent(d.remoteNick)}` },
  { route: '/tags/:tag', url: () => '/tags/garden' },
  { route: '/connections', url: () => '/connections' },
  { route: '/connections/:abookId', url: (d) => `/connections/${d.bobAbookId}` },
  { route: '/connections/:abookId', url: (d) => `/connections/${d.remoteAbookId}` },
  { route: '/settings/oauth', url: () => '/settings/oauth/' },
  { route: '/settings', url: () => '/settings' },
  { route: '/settings', url: () => '/settings/storage' },
  { route: '/channels', url: () => '/channels' },
  { route: '/channels/import', url: () => '/channels/import' },
  { route: '/channels/new', url: () => '/channels/new' },
  { route: '/channel/:nick', url: () => '/channel/alice' },
  { route: '/channel/:nick', url: () => '/channel/bob' },
  { route: '/channel/:nick', url: (d) => `/channel/${encodeURIComponent(d.remoteNick)}` },
  { route: '/display/:mid', url: (d) => `/display/${encodeURIComponent(d.postMid)}`, lands: /\/item\/\d+$/ },
  { route: '/display/:mid', url: () => '/display/no-such-post', expects: /mid=no-such-post/ },
  { route: '/photos/:nick/image/:id', url: (d) => `/photos/alice/image/${d.photoId}`, lands: /\?photo=/ },
  { route: '/photos/:nick/image/:id', url: (d) => `/photos/bob/image/${d.bobPhotoId}` },
  { route: '/photos/:nick/album/:hex', url: (d) => `/photos/alice/album/${Buffer.from(d.album).toString('hex')}`, lands: /\/photos\/album\// },
  { route: '/photos/:nick/album', url: () => '/photos/bob/album' },
  { route: '/mail/:id', url: (d) => `/mail/${d.messageId}`, lands: /\/messages\/bob$/ },
  { route: '/poco/:nick', url: () => '/poco/bob', lands: /\/channel\/bob$/ },
  { route: '/follow', url: () => '/follow?url=dave%40example.org', lands: /\/connections\?connect=/ },
  { route: 'not found', url: () => '/no/such/screen', expects: /\/no\/such\/screen$/ },
];

let hub: TestHub;
let ui: Ui;
let data: Data;
const RESULTS = join(SCREENSHOTS, '..');

async function postForm(as: string, path: string, fields: Record<string, string>, file?: { field: string; name: string; bytes: Buffer; type: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await hub.request(path, { as, method: 'POST', body: form });
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}

/** A person on another server the owner follows, with a post of theirs (stored as federation stores it). */
function remotePerson(): string {
  const id = 'https://social.example/users/rosa';
  upsertRemoteActor(hub.hub.db, { id, address: 'rosa@social.example', name: 'Rosa Remote', url: 'https://social.example/@rosa', icon: '', publicKeyPem: '', inbox: `${id}/inbox`, sharedInbox: '', followers: `${id}/followers`, keyId: '', manuallyApproves: false }, nowDb());
  const rosa = getXchan(hub.hub.db, id)!;
  connectService(hub.hub, hub.channels.alice!, id);
  receivePost(hub.hub, { keeper: hub.channels.alice!, author: rosa, mid: 'https://social.example/notes/1', html: '<p>Greetings from the coast <a href="https://social.example/tags/garden">#garden</a></p>', title: '', summary: '', sensitive: false, created: nowDb(), url: 'https://social.example/@rosa/1', acl: PUBLIC_ACL, visibility: 'public', mentions: [], hashtags: ['garden'] });
  return 'rosa@social.example';
}

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await connectMutually(hub, 'alice', ['bob', 'carol']);
  const family = await createGroup(hub, 'alice', 'Family', ['bob']);
  const familyHash = (await apiCall<{ id: string; hash: string }[]>(hub, 'alice', '/api/z/1.0/group', {}, 'GET')).find((g) => String(g.id) === String(family.gid))!.hash;
  const photoPost = await postForm('alice', '/api/z/1.0/item/update', { title: 'Our garden', body: 'The first roses are out #garden' }, { field: 'media', name: 'roses.png', bytes: await pngOf({ r: 200, g: 60, b: 80 }, 320, 240), type: 'image/png' });
  const item = photoPost.item as { id: string; mid: string };
  await apiCall(hub, 'bob', '/api/ext/activity/like', { id: item.id });
  await postStatus(hub, 'bob', 'They look lovely, @alice!', { in_reply_to_status_id: item.id });
  await postStatus(hub, 'carol', 'Anyone for a walk on Sunday? #garden');
  await postForm('alice', '/api/z/1.0/item/update', { body: 'Dinner plans for the family', 'group_allow[]': familyHash });
  const photo = await postForm('alice', '/api/ext/photo/create', { album: 'Summer by the sea', desc: 'Waves at noon' }, { field: 'media', name: 'waves.png', bytes: await pngOf({ r: 40, g: 110, b: 190 }, 320, 240), type: 'image/png' });
  const bobPhoto = await postForm('bob', '/api/ext/photo/create', { album: 'Bikes', desc: 'My bike' }, { field: 'media', name: 'bike.png', bytes: await pngOf({ r: 60, g: 60, b: 60 }, 320, 240), type: 'image/png' });
  const folderHash = (await apiCall<{ attach: { hash: string } }>(hub, 'alice', '/api/z/1.0/file/folder', { name: 'Recipes' })).attach.hash;
  await postForm('alice', '/api/z/1.0/file/upload', { folder: folderHash }, { field: 'file', name: 'soup.txt', bytes: Buffer.from('Leek and potato'), type: 'text/plain' });
  const message = await apiCall<{ id: number }>(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', title: 'Sunday', text: 'Lunch at mine?' });
  const remoteNick = remotePerson();
  const remoteRow = (await apiCall<{ abook_id: string; xchan_addr: string }[]>(hub, 'alice', '/api/z/1.0/abook', {}, 'GET')).find((r) => r.xchan_addr === remoteNick);
  data = {
    postId: item.id,
    postMid: item.mid,
    album: 'Summer by the sea',
    photoId: photo.id,
    bobPhotoId: bobPhoto.id,
    gid: String(family.gid),
    bobAbookId: await connectionId(hub, 'alice', 'bob'),
    remoteAbookId: String(remoteRow!.abook_id),
    remoteNick,
    messageId: String(message.id),
  };
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** The page has loaded what it shows: no spinner, no request under way. */
async function settled(page: Page): Promise<void> {
  await page.locator('main#main, main.auth').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('[role="status"].loading'));
}

/** Someone posts while the owner reads: the live stream's "new posts" bar. */
async function newPostsArrive(page: Page): Promise<void> {
  await page.getByRole('article').first().waitFor();
  await postStatus(hub, 'carol', 'Fresh eggs at the farm gate');
  await page.getByRole('button', { name: 'Show 1 new post' }).waitFor();
}

async function openChannelMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Channel Alice/ }).click();
  await page.getByRole('menu').waitFor();
}

/** The album a post's photos go to by default (the hub's month folder). */
function thisMonth(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

async function openAlbumDeleteDialog(page: Page): Promise<void> {
  await page.getByRole('button', { name: `Delete ${thisMonth()}` }).click();
  await page.getByRole('dialog').getByRole('note', { name: 'Posts showing these photos' }).waitFor();
}

async function openPreview(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Preview ${name}` }).click();
  await page.waitForFunction(() => ((document.querySelector('.file-preview img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
}

async function attachPhoto(page: Page): Promise<void> {
  await page.getByLabel('Attach photos or files').setInputFiles({ name: 'tulips.png', mimeType: 'image/png', buffer: await pngOf({ r: 220, g: 80, b: 120 }, 64, 48) });
  await page.getByLabel('Photos go to the album').waitFor();
}

async function openDeleteDialog(page: Page): Promise<void> {
  await page.locator('article').first().locator('.post-tools').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this post?' }).waitFor();
}

async function openAudienceAndPreview(page: Page): Promise<void> {
  // The composer grows from its one line once the owner starts writing.
  await page.getByRole('textbox', { name: 'Message', exact: true }).click();
  await page.getByRole('button', { name: /^Audience:/ }).click();
  await page.getByText('Only the groups and people I choose').click();
  await page.getByRole('group', { name: 'Who can see this post' }).getByText('Family').waitFor();
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello [b]there[/b]');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('region', { name: 'Preview' }).getByText('there').waitFor();
}

/** Every finding of this run, of any impact, for people to read: test-results/accessibility.json. */
const report: { screen: string; width: string; violations: AxeViolation[] }[] = [];

/** axe at both widths; the failing findings (serious, critical and the named rules), one entry per screen and width. */
async function audit(page: Page, what: string, out: string[]): Promise<void> {
  for (const [size, width] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const violations = await axeViolations(page);
    report.push({ screen: what, width, violations });
    const failing = violations.filter(fails);
    if (failing.length) out.push(`${what} at ${width} width:\n${describeViolations(failing)}`);
  }
  await page.setViewportSize(DESKTOP);
}

after(async () => {
  await mkdir(RESULTS, { recursive: true });
  await writeFile(join(RESULTS, 'accessibility.json'), JSON.stringify(report, null, 1));
});

test('every route of the UI is in this accessibility check', () => {
  const covered = new Set(SCREENS.map((s) => s.route));
  const missing = uiRoutePatterns().filter((r) => !covered.has(r));
  assert.deepEqual(missing, [], 'routes of renderer/src/App.tsx that test/e2e/accessibility.test.ts does not visit: add a screen for each');
  const stale = [...covered].filter((r) => r !== 'not found' && !uiRoutePatterns().includes(r));
  assert.deepEqual(stale, [], 'screens of this test for routes the router no longer has');
});

test('axe finds no serious or critical violation on any screen, at desktop and phone width', async () => {
  const { page } = ui;
  const problems: string[] = [];
  for (const screen of SCREENS) {
    const url = screen.url(data);
    if (screen.expects) ui.allowProblems(screen.expects);
    await page.goto(url);
    if (screen.lands) await page.waitForURL(screen.lands);
    await settled(page);
    // A screen that failed to load its data would be checked empty.
    for (const error of await page.locator('.error-note').allInnerTexts()) problems.push(`${url} shows an error: ${error}`);
    await screen.then?.(page);
    await audit(page, `${url}${screen.then ? ` (${screen.then.name})` : ''}`, problems);
  }
  assert.equal(problems.length, 0, `axe found:\n${problems.join('\n')}`);
});

test('the login and first-run screens have no serious or critical violation either', async () => {
  const problems: string[] = [];
  const loggedOut = await openUi(hub);
  try {
    await loggedOut.page.goto('/');
    await loggedOut.page.getByRole('button', { name: 'Log in' }).waitFor();
    await settled(loggedOut.page);
    await audit(loggedOut.page, 'the login screen', problems);
  } finally {
    await loggedOut.close();
  }
  const fresh = await startHub();
  const setup = await openUi(fresh);
  try {
    await setup.page.goto('/');
    await setup.page.getByRole('heading', { level: 1 }).waitFor();
    await settled(setup.page);
    await audit(setup.page, 'the setup screen', problems);
  } finally {
    await setup.close();
    await fresh.stop();
  }
  assert.equal(problems.length, 0, `axe found:\n${problems.join('\n')}`);
});
