import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { test } from 'node:test';
import { startHub } from '../helpers/hub.js';
import { openUi, PHONE } from '../helpers/ui.js';

// LAN access from the browser: a hub that may move itself offers the switch in Settings; moving
// drops the page's connection, so the page says where the hub went. 127.0.0.2 stands for this
// computer's address on the network (loopback, so that the test stays on this machine).

const LAN_ADDRESS = '127.0.0.2';
const fakeLan = () => ({ eth0: [{ address: LAN_ADDRESS, family: 'IPv4', internal: false, netmask: '255.0.0.0', mac: '', cidr: null } as NetworkInterfaceInfo] });

test('LAN access: turned on in Settings, the page names the new address; a phone there turns it off and is told it is cut off', async () => {
  const hub = await startHub({ channels: ['alice'], options: { lanSwitch: { interfaces: fakeLan } } });
  const ui = await openUi(hub, { as: 'alice' });
  const lanUrl = `http://${LAN_ADDRESS}:${hub.hub.port}`;
  try {
    const { page } = ui;
    await page.goto('/settings/lan');
    await page.getByText('LAN access is off: only this computer can reach your hub.').waitFor();
    await page.getByText(`your phone and other computers on your network can use your hub, at ${lanUrl}.`).waitFor();
    await ui.screenshots('lan-off', { fullPage: false });

    // Moving closes every connection the hub holds, this page's live stream too; the bell and the
    // envelope then ask the hub themselves until the stream is back, and what they asked while the
    // hub was binding anew fails. Only such resets are allowed; anything else is still a problem.
    ui.allowProblems(/ERR_CONNECTION_(RESET|REFUSED)/);
    await page.getByRole('button', { name: 'Turn LAN access on' }).click();
    const moved = page.locator('.lan-moved');
    await moved.getByText(`Your hub moved to ${lanUrl}.`).waitFor();
    assert.equal(await moved.getByRole('link', { name: lanUrl }).getAttribute('href'), lanUrl);
    await page.getByText(`LAN access is on: devices on your network can reach your hub at ${LAN_ADDRESS}.`).waitFor();
    await page.locator('.copy-field', { hasText: 'Hub address' }).getByText(lanUrl, { exact: true }).waitFor();
    await ui.screenshots('lan-on', { fullPage: false });

    // The phone, on the network: the hub's new address, logged in there.
    const phone = await openUi({ ...hub, url: lanUrl }, { as: 'alice', viewport: PHONE });
    try {
      await phone.page.goto('/settings/lan');
      await phone.page.getByText(`LAN access is on: devices on your network can reach your hub at ${LAN_ADDRESS}.`).waitFor();
      await phone.page.getByRole('button', { name: 'Turn LAN access off' }).click();
      const dialog = phone.page.getByRole('dialog', { name: 'Turn LAN access off?' });
      await dialog.getByText('this page loses its connection').waitFor();
      // From now on nothing answers at the network address: the page's requests there fail.
      phone.allowProblems(new RegExp(LAN_ADDRESS.replace(/\./g, '\\.')));
      await dialog.getByRole('button', { name: 'Turn LAN access off' }).click();
      await phone.page.getByText('This device cannot reach your hub any more.').waitFor();
      await phone.page.getByText(`http://127.0.0.1:${hub.hub.port}`, { exact: true }).first().waitFor();
      await phone.screenshots('lan-off-from-phone', { fullPage: false });
    } finally {
      await phone.close();
    }

    await page.goto('/settings/lan');
    await page.getByText('LAN access is off: only this computer can reach your hub.').waitFor();
    await assert.rejects(fetch(`${lanUrl}/session`), 'the network does not reach the hub any more');
  } finally {
    await ui.close();
    await hub.stop();
  }
});

test('LAN access: a hub started with its address given shows the command that opens it instead of a switch', async () => {
  const hub = await startHub({ channels: ['alice'] });
  const ui = await openUi(hub, { as: 'alice' });
  try {
    const { page } = ui;
    await page.goto('/settings/lan');
    await page.getByText('Your hub was started with its address given').waitFor();
    await page.locator('.copy-field', { hasText: 'To open it to your network, start it with' }).getByText(new RegExp(`^hearth serve --host 0\\.0\\.0\\.0 --port ${hub.hub.port} --base-url http://`)).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Turn LAN access on' }).count(), 0);
    await ui.screenshots('lan-fixed', { fullPage: false });
  } finally {
    await ui.close();
    await hub.stop();
  }
});
