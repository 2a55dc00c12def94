import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { MARKUP_CORPUS } from '../helpers/markup-corpus.js';
import { postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('the live preview renders BBCode through the allowlist and never runs markup from the text', async () => {
  const { page } = ui;
  await page.addInitScript(() => {
    (window as unknown as { hostile: string[] }).hostile = [];
    window.alert = (msg?: unknown) => (window as unknown as { hostile: string[] }).hostile.push(String(msg));
  });
  await page.goto('/');
  // The test machine reaches no outside host: the preview's image from example.org cannot load.
  ui.allowProblems(/example\.org/);
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByRole('button', { name: 'Preview' }).click();
  const body = composer.getByLabel('Message');
  await body.fill(
    [
      '[b]bold[/b] [i]italic[/i] [url=https://example.org/page]a link[/url]',
      '[url=javascript:alert(1)]bad link[/url]',
      '[img]https://example.org/x.png" onerror="alert(2)[/img]',
      '<script>alert(3)</script><img src=x onerror=alert(4)>',
      '[color=red]red[/color] [size=20]big[/size]',
      '[list][*]one[*]two[/list]',
    ].join('\n'),
  );
  const preview = composer.getByRole('region', { name: 'Preview' });
  await preview.getByRole('link', { name: 'a link' }).waitFor();
  assert.equal(await preview.getByRole('link', { name: 'a link' }).getAttribute('href'), 'https://example.org/page');
  assert.equal(await preview.getByRole('link', { name: 'a link' }).getAttribute('rel'), 'noopener noreferrer nofollow');
  assert.equal(await preview.getByText('bad link').evaluate((el) => el.closest('a')?.getAttribute('href') ?? null), null, 'a javascript: link loses its href');
  assert.equal(await preview.locator('[onerror], script, [href^="javascript"]').count(), 0);
  // Raw HTML typed into BBCode is shown as text, not parsed.
  await preview.getByText('<script>alert(3)</script>', { exact: false }).waitFor();
  assert.equal(await preview.getByRole('listitem').count(), 2);
  assert.equal(await preview.getByText('red', { exact: true }).evaluate((el) => getComputedStyle(el).color), 'rgb(255, 0, 0)');

  const hostile = await page.evaluate(() => (window as unknown as { hostile: string[] }).hostile);
  assert.deepEqual(hostile, []);
});

test('the toolbar wraps the selection in BBCode', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByRole('button', { name: 'Preview' }).click();
  const body = composer.getByLabel('Message');
  await body.fill('make this strong');
  await body.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(10, 16));
  await composer.getByRole('button', { name: 'Bold' }).click();
  assert.equal(await body.inputValue(), 'make this [b]strong[/b]');
  await body.press('Control+a');
  await composer.getByRole('button', { name: 'Quote' }).click();
  assert.equal(await body.inputValue(), '[quote]make this [b]strong[/b][/quote]');
  await composer.getByRole('region', { name: 'Preview' }).locator('blockquote').waitFor();
});

const shownText = (el: Element) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim();

test('the preview, and the post once published, show every visible character of the tricky bodies', async () => {
  const { page } = ui;
  // Bodies with links to example.org: the test machine reaches no outside host.
  ui.allowProblems(/example\.org/);
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByRole('button', { name: 'Preview' }).click();
  const preview = composer.getByRole('region', { name: 'Preview' }).locator('.post-content');
  for (const entry of MARKUP_CORPUS) {
    await composer.getByLabel('Message').fill(entry.body);
    await page.waitForFunction(({ expected }) => {
      const el = document.querySelector('[aria-label="Preview"] .post-content') as HTMLElement | null;
      return el?.innerText.replace(/\s+/g, ' ').trim() === expected;
    }, { expected: entry.visible }, { timeout: 5000 }).catch(() => undefined);
    assert.equal(await preview.evaluate(shownText), entry.visible, `preview: ${entry.name}`);
  }
  await composer.getByLabel('Message').fill(MARKUP_CORPUS.slice(0, 5).map((e) => e.body).join('\n'));
  await preview.getByText('two.b').waitFor();
  await ui.screenshots('composer-preview-corpus');

  for (const entry of MARKUP_CORPUS) {
    const status = await postStatus(hub, 'alice', entry.body);
    await page.goto(`/item/${status.id}`);
    const content = page.locator(`article[data-status-id="${status.id}"] .post-content`).first();
    await content.waitFor();
    assert.equal(await content.evaluate(shownText), entry.visible, `published: ${entry.name}`);
  }
});
