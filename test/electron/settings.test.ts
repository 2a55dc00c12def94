import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, SettingsStore } from '../../electron/lib/settings.js';

describe('desktop settings store', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-settings-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('starts from the defaults when there is no file: LAN access off', () => {
    const s = new SettingsStore(join(dir, 'none', 'settings.json'));
    assert.deepEqual(s.get(), { lanAccess: false, port: 0 });
    assert.deepEqual(s.get(), DEFAULT_SETTINGS);
  });

  it('persists changes across instances, leaving no temporary file', async () => {
    const file = join(dir, 'sub', 'settings.json');
    new SettingsStore(file).update({ lanAccess: true, port: 43210 });
    assert.deepEqual(new SettingsStore(file).get(), { lanAccess: true, port: 43210 });
    new SettingsStore(file).update({ lanAccess: false });
    assert.deepEqual(new SettingsStore(file).get(), { lanAccess: false, port: 43210 });
    assert.deepEqual(await readdir(join(dir, 'sub')), ['settings.json']);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { lanAccess: false, port: 43210 });
  });

  it('ignores a damaged file and malformed values', async () => {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"lanAccess": tru');
    assert.deepEqual(new SettingsStore(broken).get(), DEFAULT_SETTINGS);
    const odd = join(dir, 'odd.json');
    await writeFile(odd, JSON.stringify({ lanAccess: 'yes', port: 70000, extra: 1 }));
    assert.deepEqual(new SettingsStore(odd).get(), DEFAULT_SETTINGS);
    await writeFile(odd, JSON.stringify({ lanAccess: true, port: 8420 }));
    assert.deepEqual(new SettingsStore(odd).get(), { lanAccess: true, port: 8420 });
  });

  it('hands out copies, so callers cannot change the stored state by accident', () => {
    const s = new SettingsStore(join(dir, 'copy.json'));
    s.get().lanAccess = true;
    assert.equal(s.get().lanAccess, false);
  });
});
