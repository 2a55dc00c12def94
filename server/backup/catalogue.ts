import { BackupError } from './errors.js';
import { backupFolder, isBackupId, MANIFEST_OBJECT, parseManifest, type Manifest } from './manifest.js';
import type { BackupTarget } from './targets/target.js';
import { readAll, type Vault } from './vault.js';

/** The backups a target holds, by what their manifests say. */
export interface Catalogue {
  /** Backups whose manifest is there and reads, newest first. */
  complete: Manifest[];
  /** Backup folders without a manifest: interrupted before they were finished. */
  incomplete: string[];
  /** Backups whose manifest is there but cannot be read: what is wrong with each. */
  unreadable: { id: string; problem: string }[];
  /** Every object under backups/, by backup id. */
  objects: Map<string, string[]>;
}

export async function readManifest(target: BackupTarget, vault: Vault, id: string): Promise<Manifest> {
  let text: string;
  try {
    text = (await readAll(await vault.open(await target.read(backupFolder(id) + MANIFEST_OBJECT)))).toString('utf8');
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the manifest of backup ${id} is damaged (${(err as Error).message})`);
  }
  return parseManifest(text, id);
}

export async function readCatalogue(target: BackupTarget, vault: Vault): Promise<Catalogue> {
  const objects = new Map<string, string[]>();
  for (const name of await target.list('backups/')) {
    const id = name.split('/')[1] ?? '';
    if (!isBackupId(id)) continue;
    const list = objects.get(id) ?? [];
    list.push(name);
    objects.set(id, list);
  }
  const catalogue: Catalogue = { complete: [], incomplete: [], unreadable: [], objects };
  for (const [id, names] of objects) {
    if (!names.includes(backupFolder(id) + MANIFEST_OBJECT)) {
      catalogue.incomplete.push(id);
      continue;
    }
    try {
      catalogue.complete.push(await readManifest(target, vault, id));
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      catalogue.unreadable.push({ id, problem: err.message });
    }
  }
  catalogue.complete.sort((a, b) => (a.id < b.id ? 1 : -1));
  return catalogue;
}
