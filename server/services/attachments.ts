import { stat } from 'node:fs/promises';
import type { Hub } from '../hub-context.js';
import type { AttachRow, ChannelRow } from '../store/rows.js';
import {
  deleteAttach, findFolder, getAttachByHash, insertAttach, isEmptyFolder, namesLike, updateAttach, type NewAttach,
} from '../store/attachments.js';
import { commitWithFiles } from '../files/store.js';
import { chooseFiletype, sniffFileType } from '../files/filetype.js';
import { badRequest } from '../http/errors.js';
import { randomHex64 } from '../util/ids.js';
import { nowDb } from '../util/time.js';
import { PUBLIC_ACL, type AccessLists } from './acl.js';

/** A file to store: an upload's temporary file (it is moved into the store) and its names. */
export interface FileSource {
  filepath: string;
  originalFilename?: string | null;
  mimetype?: string | null;
}

export interface AttachOptions {
  acl?: AccessLists;
  /** Name of the top-level folder to put the file in; '' is the root; default the current month (YYYY-MM). */
  folder?: string;
  /** Nested folders to put the file in, outermost first (an import keeps the source's tree); wins over folder. */
  folderPath?: string[];
  /** The channel's folder to put the file in (its own record); wins over folderPath and folder. */
  parent?: AttachRow;
  /** The file's hash (64 hex characters); a new one when absent. An import keeps the source's where it can. */
  hash?: string;
  /** When the file was created; now when absent. */
  created?: string;
  isPhoto?: boolean;
  /** attach.flags (ATTACH_PENDING for uploads waiting for their post's audience). */
  flags?: number;
  /** The recorded type, when the caller knows better than the upload (a decoded image). */
  filetype?: string;
  /** Who uploaded it (xchan hash); the channel by default. */
  creator?: string;
}

/** A file already in the store whose record is not written yet. */
export interface StagedAttachment {
  readonly key: string;
  readonly hash: string;
  readonly filetype: string;
  readonly filesize: number;
  /** Writes the folder (when new) and the file record. Call inside the transaction of the write it belongs to. */
  commit(): AttachRow;
}

export const FOLDER_TYPE = 'multipart/mixed';

/** Just the four access lists of anything that carries them (a row, a request's lists). */
export function pickAcl(a: AccessLists): AccessLists {
  return { allow_cid: a.allow_cid, allow_gid: a.allow_gid, deny_cid: a.deny_cid, deny_gid: a.deny_gid };
}
const MAX_NAME = 200;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;
/** "." and "..": names of no file or folder, whatever the source of a name says. */
const DOTS = /^\.{1,2}$/;

/** A file name without directories, control characters or surrounding blanks; 'upload' when nothing is left (or only "." or ".."). */
export function cleanFilename(name: string | null | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(CONTROL_CHARACTERS, '').trim();
  const chars = [...clean];
  const cut = chars.length > MAX_NAME ? chars.slice(0, MAX_NAME).join('') : clean;
  return DOTS.test(cut) ? 'upload' : cut || 'upload';
}

/** The month folder name (YYYY-MM) in the channel's time zone, as Hubzilla's default attach path. */
export function monthFolder(channel: ChannelRow, when = new Date()): string {
  let tz = String(channel.channel_timezone || 'UTC');
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: tz });
  } catch {
    tz = 'UTC';
  }
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit' }).formatToParts(when);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

/** Folder names are single path segments, never "." or ".." ('' then: no folder). */
export function cleanFolderName(name: string): string {
  const clean = name.replace(CONTROL_CHARACTERS, '').replace(/[/\\]/g, '-').trim().slice(0, MAX_NAME);
  return DOTS.test(clean) ? '' : clean;
}

/** The name `wanted` if free in the folder, else the first free 'name(1).ext', 'name(2).ext'… */
export function freeName(hub: Hub, uid: number, folder: string, wanted: string): string {
  const dot = wanted.lastIndexOf('.');
  const stem = dot > 0 ? wanted.slice(0, dot) : wanted;
  const ext = dot > 0 ? wanted.slice(dot) : '';
  const taken = namesLike(hub.db, uid, folder, stem);
  if (!taken.has(wanted)) return wanted;
  for (let i = 1; ; i++) {
    const candidate = `${stem}(${i})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The channel's top-level folder of this name, created (public, like Hubzilla's) when missing. */
export function ensureFolder(hub: Hub, channel: ChannelRow, name: string): AttachRow | undefined {
  const clean = cleanFolderName(name);
  if (!clean) return undefined;
  const existing = findFolder(hub.db, channel.channel_id, '', clean);
  if (existing) return existing;
  const hash = randomHex64();
  const now = nowDb();
  return insertAttach(hub.db, {
    aid: channel.channel_account_id, uid: channel.channel_id, hash, creator: channel.channel_hash, filename: clean, filetype: FOLDER_TYPE,
    filesize: 0, revision: 0, folder: '', flags: 0, is_dir: 1, is_photo: 0, os_storage: 1, os_path: hash, display_path: clean, content: '',
    created: now, edited: now, ...PUBLIC_ACL,
  });
}

/** The channel's folder at this path (outermost first), each missing one created with the given audience. */
export function ensureFolderPath(hub: Hub, channel: ChannelRow, names: string[], acl: AccessLists = PUBLIC_ACL): AttachRow | undefined {
  let parent: AttachRow | undefined;
  for (const name of names) {
    const clean = cleanFolderName(name);
    if (!clean) continue;
    const existing = findFolder(hub.db, channel.channel_id, parent?.hash ?? '', clean);
    if (existing) {
      parent = existing;
      continue;
    }
    const hash = randomHex64();
    const now = nowDb();
    parent = insertAttach(hub.db, {
      aid: channel.channel_account_id, uid: channel.channel_id, hash, creator: channel.channel_hash, filename: clean, filetype: FOLDER_TYPE,
      filesize: 0, revision: 0, folder: parent?.hash ?? '', flags: 0, is_dir: 1, is_photo: 0, os_storage: 1,
      os_path: parent ? `${parent.os_path}/${hash}` : hash, display_path: parent ? `${parent.display_path}/${clean}` : clean, content: '',
      created: now, edited: now, ...pickAcl(acl),
    });
  }
  return parent;
}

/**
 * Moves an upload into the attachment store and prepares its record: hash (64 hex), cleaned and
 * de-duplicated file name, mime type (sniffed, else declared), folder. Nothing is in the database
 * until commit(); when the caller's write fails, commitWithFiles removes the file again.
 */
export async function stageAttachment(hub: Hub, channel: ChannelRow, file: FileSource, opts: AttachOptions = {}): Promise<StagedAttachment> {
  const info = await stat(file.filepath).catch(() => undefined);
  if (!info?.isFile()) throw badRequest('the uploaded file is missing');
  const wantedName = cleanFilename(file.originalFilename);
  const filetype = opts.filetype ?? chooseFiletype(await sniffFileType(file.filepath), file.mimetype, wantedName);
  const key = await hub.files.putFile(file.filepath);
  const hash = opts.hash ?? randomHex64();
  const filesize = info.size;
  return {
    key,
    hash,
    filetype,
    filesize,
    commit() {
      const folderName = opts.folder ?? monthFolder(channel);
      const folder = opts.parent ? opts.parent : opts.folderPath ? ensureFolderPath(hub, channel, opts.folderPath) : folderName ? ensureFolder(hub, channel, folderName) : undefined;
      const filename = freeName(hub, channel.channel_id, folder?.hash ?? '', wantedName);
      const now = opts.created ?? nowDb();
      const row: NewAttach = {
        aid: channel.channel_account_id, uid: channel.channel_id, hash, creator: opts.creator ?? channel.channel_hash, filename, filetype,
        filesize, revision: 0, folder: folder?.hash ?? '', flags: opts.flags ?? 0, is_dir: 0, is_photo: opts.isPhoto ? 1 : 0, os_storage: 1,
        os_path: folder ? `${folder.os_path}/${hash}` : hash, display_path: folder ? `${folder.display_path}/${filename}` : filename,
        content: hub.files.relativePath(key), created: now, edited: now, ...pickAcl(opts.acl ?? PUBLIC_ACL),
      };
      return insertAttach(hub.db, row);
    },
  };
}

/** Stores an uploaded file (params.file(...) fits) as a file record of the channel, all or nothing. */
export async function storeAttachment(hub: Hub, channel: ChannelRow, file: FileSource, opts: AttachOptions = {}): Promise<AttachRow> {
  const staged = await stageAttachment(hub, channel, file, opts);
  return commitWithFiles(hub.files, [staged.key], () => hub.db.transaction(() => staged.commit())());
}

/** Moves a file record into another top-level folder ('' = root), keeping its name free of clashes. */
export function moveAttachment(hub: Hub, channel: ChannelRow, row: AttachRow, folderName: string): AttachRow {
  const oldFolder = row.folder;
  const folder = folderName ? ensureFolder(hub, channel, folderName) : undefined;
  const target = folder?.hash ?? '';
  if (target === row.folder) return row;
  const filename = freeName(hub, channel.channel_id, target, row.filename);
  updateAttach(hub.db, row.id, {
    folder: target, filename, os_path: folder ? `${folder.os_path}/${row.hash}` : row.hash,
    display_path: folder ? `${folder.display_path}/${filename}` : filename, edited: nowDb(),
  });
  removeFolderIfEmpty(hub, channel, oldFolder);
  return getAttachByHash(hub.db, row.hash)!;
}

/** Removes a top-level folder of the channel that no longer holds anything. */
export function removeFolderIfEmpty(hub: Hub, channel: ChannelRow, folderHash: string): void {
  if (!folderHash) return;
  const folder = getAttachByHash(hub.db, folderHash);
  if (folder && folder.uid === channel.channel_id && folder.is_dir && isEmptyFolder(hub.db, channel.channel_id, folderHash)) deleteAttach(hub.db, folder.id);
}

/** Sets the audience of a file record (and clears the pending-upload flag). */
export function setAttachmentAcl(hub: Hub, row: AttachRow, acl: AccessLists): void {
  updateAttach(hub.db, row.id, { ...pickAcl(acl), flags: 0, edited: nowDb() });
}
