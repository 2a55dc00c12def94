import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

// A photo attached in the composer to a Markdown or plain-text post shows as the photo, not as the
// [zrl][zmg] BBCode the upload adds to the body.

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

for (const [format, label, text, shown] of [
  ['text/markdown', 'Markdown', '**Leek** soup tonight', 'Leek soup tonight'],
  ['text/plain', 'plain text', 'Leek *soup* tonight', 'Leek *soup* tonight'],
] as const) {
  test(`a photo attached to a ${label} post shows as a picture`, async () => {
    const { page } = ui;
    await page.goto('/');
    const composer = page.getByRole('form', { name: 'New post' });
    await composer.getByLabel('Message').click();
    await composer.getByLabel('Format', { exact: true }).selectOption(format);
    await composer.getByLabel('Message').fill(text);
    await composer.getByLabel('Attach photos or files').setInputFiles({ name: 'soup.png', mimeType: 'image/png', buffer: await pngOf({ r: 200, g: 180, b: 40 }) });
    await composer.getByRole('list', { name: 'Attachments' }).getByText('soup.png').waitFor();
    await composer.getByRole('button', { name: 'Post' }).click();

    const post = page.getByRole('article').filter({ hasText: shown });
    await post.waitFor();
    const content = post.locator('.post-content');
    await content.locator('img').waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('article .post-content img')].every((img) => (img as HTMLImageElement).naturalWidth > 0));
    assert.doesNotMatch(await post.innerText(), /\[\/?(zmg|zrl|img|url)\b/i, 'no BBCode shown as text');
    assert.equal(await post.locator('img:not(.avatar)').count(), 1, 'the photo is shown once');
    assert.equal((await content.innerText()).trim(), shown);
    await ui.screenshots(`photo-${label.replace(' ', '-')}`, { fullPage: false });
  });
}
