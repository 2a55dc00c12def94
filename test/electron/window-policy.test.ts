import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MenuItemConstructorOptions } from 'electron';
import { decideNavigation } from '../../electron/lib/navigation.js';
import { trayMenuTemplate, trayTooltip, unseenLabel, type TrayActions } from '../../electron/lib/tray-menu.js';
import { lanPageHtml } from '../../electron/lib/lan-page.js';

describe('window navigation policy', () => {
  const origins = ['http://127.0.0.1:4000', 'http://192.0.2.5:4000'];
  it('keeps the hub\'s own pages in the window', () => {
    assert.equal(decideNavigation('http://127.0.0.1:4000/item/3', origins), 'allow');
    assert.equal(decideNavigation('http://192.0.2.5:4000/photo/x-1.jpg', origins), 'allow');
  });
  it('sends other web and mail links to the system', () => {
    assert.equal(decideNavigation('https://example.org/', origins), 'external');
    assert.equal(decideNavigation('http://127.0.0.1:4001/', origins), 'external');
    assert.equal(decideNavigation('https://127.0.0.1:4000/', origins), 'external');
    assert.equal(decideNavigation('mailto:bob@example.org', origins), 'external');
  });
  it('refuses everything else', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'smb://host/share', 'not a url', 'https://user:pw@example.org/']) {
      assert.equal(decideNavigation(url, origins), 'block', url);
    }
  });
});

describe('tray menu', () => {
  function actions() {
    const calls: string[] = [];
    const a: TrayActions = {
      open: () => calls.push('open'),
      openNotifications: () => calls.push('notifications'),
      setLanAccess: (on) => calls.push(`lan:${on}`),
      showLanAddress: () => calls.push('address'),
      quit: () => calls.push('quit'),
    };
    return { a, calls };
  }
  const click = (item: MenuItemConstructorOptions | undefined, checked?: boolean) =>
    (item?.click as unknown as (i: { checked?: boolean }) => void)({ checked });
  const find = (items: MenuItemConstructorOptions[], label: RegExp) => items.find((i) => label.test(i.label ?? ''));

  it('counts unseen notifications', () => {
    assert.equal(unseenLabel(0), 'No unseen notifications');
    assert.equal(unseenLabel(1), '1 unseen notification');
    assert.equal(unseenLabel(12), '12 unseen notifications');
  });

  it('offers open, notifications, LAN access and quit', () => {
    const { a, calls } = actions();
    const items = trayMenuTemplate({ unseen: 2, lan: { on: false } }, a);
    assert.deepEqual(items.filter((i) => i.label).map((i) => i.label), ['Open Hearth', '2 unseen notifications', 'LAN access', 'Quit Hearth']);
    const lan = find(items, /^LAN access$/)!;
    assert.equal(lan.type, 'checkbox');
    assert.equal(lan.checked, false);
    click(find(items, /^Open/));
    click(find(items, /unseen/));
    click(lan, true);
    click(find(items, /^Quit/));
    assert.deepEqual(calls, ['open', 'notifications', 'lan:true', 'quit']);
    assert.equal(find(trayMenuTemplate({ unseen: 0, lan: { on: false } }, a), /unseen/)!.enabled, false);
  });

  it('shows the LAN address while LAN access is on, and why it is off when it failed', () => {
    const { a, calls } = actions();
    const on = trayMenuTemplate({ unseen: 0, lan: { on: true, url: 'http://192.0.2.5:4000' } }, a);
    assert.equal(find(on, /^LAN access$/)!.checked, true);
    click(find(on, /192\.0\.2\.5:4000/));
    click(find(on, /^LAN access$/), false);
    assert.deepEqual(calls, ['address', 'lan:false']);
    const failed = trayMenuTemplate({ unseen: 0, lan: { on: false, problem: 'No network connection found.' } }, a);
    assert.equal(find(failed, /No network/)!.enabled, false);
    assert.equal(find(failed, /192\.0\.2/), undefined);
  });

  it('sums the state up in the tooltip', () => {
    assert.equal(trayTooltip({ unseen: 0, lan: { on: false } }), 'Hearth');
    assert.equal(trayTooltip({ unseen: 3, lan: { on: true, url: 'http://192.0.2.5:4000' } }), 'Hearth · 3 unseen notifications · on the LAN at http://192.0.2.5:4000');
  });
});

describe('LAN address page', () => {
  it('shows the address and a QR code, and loads nothing', async () => {
    const html = await lanPageHtml('http://192.0.2.5:4000');
    assert.match(html, /<code>http:\/\/192\.0\.2\.5:4000<\/code>/);
    assert.match(html, /<svg[^>]*viewBox="0 0 \d+ \d+"/);
    assert.match(html, /<path[^>]* d="M[^"]+"/);
    assert.match(html, /default-src 'none'/);
    assert.doesNotMatch(html, /<script|src=/);
  });
  it('escapes what it shows', async () => {
    const html = await lanPageHtml('http://192.0.2.5:4000/<b>');
    assert.ok(!html.includes('<b>'));
  });
  it('encodes different addresses differently', async () => {
    const svg = (h: string) => /<svg[\s\S]*<\/svg>/.exec(h)![0];
    assert.notEqual(svg(await lanPageHtml('http://192.0.2.5:4000')), svg(await lanPageHtml('http://192.0.2.6:4000')));
  });
});

describe('LAN address page for Mastodon apps', () => {
  it('has a second QR code that opens the authorize page', async () => {
    const html = await lanPageHtml('http://192.0.2.5:4000');
    assert.equal(html.match(/<svg/g)?.length, 2);
    assert.match(html, /aria-label="QR code for http:\/\/192\.0\.2\.5:4000\/oauth\/authorize"/);
    assert.match(html, /enter <code>http:\/\/192\.0\.2\.5:4000<\/code> as the server/);
  });
});
