import type { Hub } from '../hub-context.js';
import type { AttachRow, ChannelRow } from '../store/rows.js';
import { childrenOf, deleteAttach, findFolder, getAttachByHash, insertAttach } from '../store/attachments.js';
import { randomHex64, toAclString } from '../util/ids.js';
import { nowDb } from '../util/time.js';
import type { AccessLists } from './acl.js';
import { FOLDER_TYPE, storeAttachment, type FileSource } from './attachments.js';
import { deletePhoto } from './photos.js';

/** Why a change to the channel's files was refused. */
export class FilesError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not-found' | 'taken',
    message: string,
  ) {
    super(message);
  }
}

const MAX_FOLDER_NAME = 200;

/** What the files page adds is the channel's own: only the channel itself may list, read or delete it. */
export function ownerOnlyAcl(channel: ChannelRow): AccessLists {
  return { allow_cid: toAclString([channel.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
}

/** One of the channel's own folders by hash; '' (or absent) is the top level. */
export function ownFolder(hub: Hub, channel: ChannelRow, hash: string | undefined): AttachRow | undefined {
  if (!hash) return undefined;
  const row = getAttachByHash(hub.db, hash);
  if (!row || row.uid !== channel.channel_id) throw new FilesError('not-found', 'folder not found');
  if (!row.is_dir) throw new FilesError('invalid', `${row.filename} is a file, not a folder`);
  return row;
}

/** A new folder in one of the channel's folders (or at the top). Names are one path segment, unique in their folder. */
export function createFolder(hub: Hub, channel: ChannelRow, parentHash: string | undefined, rawName: string): AttachRow {
  const name = rawName.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name) throw new FilesError('invalid', 'a folder needs a name');
  if (/[/\\]/.test(name)) throw new FilesError('invalid', 'a folder name cannot contain “/” or “\\”');
  if (name === '.' || name === '..') throw new FilesError('invalid', `“${name}” cannot be a folder name`);
  if ([...name].length > MAX_FOLDER_NAME) throw new FilesError('invalid', `a folder name has at most ${MAX_FOLDER_NAME} characters`);
  return hub.db.transaction(() => {
    const parent = ownFolder(hub, channel, parentHash);
    if (findFolder(hub.db, channel.channel_id, parent?.hash ?? '', name)) throw new FilesError('taken', `there is already a folder named “${name}” here`);
    const hash = randomHex64();
    const now = nowDb();
    return insertAttach(hub.db, {
      aid: channel.channel_account_id, uid: channel.channel_id, hash, creator: channel.channel_hash, filename: name, filetype: FOLDER_TYPE,
      filesize: 0, revision: 0, folder: parent?.hash ?? '', flags: 0, is_dir: 1, is_photo: 0, os_storage: 1,
      os_path: parent ? `${parent.os_path}/${hash}` : hash, display_path: parent ? `${parent.display_path}/${name}` : name, content: '',
      created: now, edited: now, ...ownerOnlyAcl(channel),
    });
  })();
}

/** Stores an upload in one of the channel's folders (or at the top), visible to the channel only. */
export async function uploadFile(hub: Hub, channel: ChannelRow, file: FileSource, parentHash: string | undefined): Promise<AttachRow> {
  const parent = ownFolder(hub, channel, parentHash);
  return storeAttachment(hub, channel, file, { parent, folder: '', acl: ownerOnlyAcl(channel) });
}

/**
 * Deletes one of the channel's files, or a folder with everything in it. Photos go the way the
 * photo pages delete them (their scales and hidden items too). Returns how many files and folders went.
 */
export async function deleteFile(hub: Hub, channel: ChannelRow, hash: string): Promise<number> {
  const root = getAttachByHash(hub.db, hash);
  if (!root || root.uid !== channel.channel_id) throw new FilesError('not-found', 'file not found');
  const all: AttachRow[] = [];
  const walk = (row: AttachRow) => {
    all.push(row);
    if (row.is_dir) for (const child of childrenOf(hub.db, channel.channel_id, row.hash)) walk(child);
  };
  walk(root);
  const photos = all.filter((r) => r.is_photo && !r.is_dir);
  for (const p of photos) await deletePhoto(hub, channel, p.hash).catch(() => undefined);
  const keys = hub.db.transaction(() => {
    const gone: string[] = [];
    // Children before their folders.
    for (const row of [...all].reverse()) {
      if (row.is_photo && !row.is_dir) continue;
      const current = getAttachByHash(hub.db, row.hash);
      if (!current) continue;
      const key = current.is_dir ? undefined : hub.files.keyOf(current.content);
      if (key) gone.push(key);
      deleteAttach(hub.db, current.id);
    }
    return gone;
  })();
  // Rows first, files after: a crash in between leaves orphan files, which the startup check removes.
  await Promise.all(keys.map((k) => hub.files.remove(k)));
  return all.length;
}
