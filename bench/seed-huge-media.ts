import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Hub } from '../server/hub.js';
import type { Db } from '../server/db/open.js';
import type { ChannelRow } from '../server/store/rows.js';
import { createPhoto, setProfilePhoto } from '../server/services/photos.js';
import { ensureFolder } from '../server/services/attachments.js';
import { insertAttach } from '../server/store/attachments.js';
import { PUBLIC_ACL } from '../server/services/acl.js';
import { randomHex64 } from '../server/util/ids.js';
import { toDbDate } from '../server/util/time.js';
import { fakeSig } from './seed-items.js';
import { uuidAt } from './seed-huge-items.js';
import { smallImage, type FileSeedResult, type PhotoSeedResult } from './seed-media.js';
import { albumName, photoTitle } from './seed-text.js';
import type { Random } from './random.js';

type Row = Record<string, unknown>;

/** Marks in the template photos that each copy replaces with its own values. */
const MARK = { album: 'zzalbum', title: 'zztitle', description: 'zzdescription', filename: 'zzphoto.jpg' };

/** Files of the attachment store written straight to their place (store.ts's layout), directories made once. */
class StoreWriter {
  private readonly dirs = new Set<string>();
  bytes = 0;
  files = 0;

  constructor(private readonly hub: Hub) {}

  write(data: Uint8Array): string {
    const key = randomHex64();
    const path = this.hub.files.path(key);
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(path, data);
    this.bytes += data.length;
    this.files++;
    return this.hub.files.relativePath(key);
  }
}

/** A JPEG with a comment segment right after its start marker: the same picture, different bytes. */
function distinctJpeg(jpeg: Buffer, n: number): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  const text = Buffer.from(`hearth bench ${n}`);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** INSERT of a row of `table` with these columns (all but id). */
function inserter(db: Db, table: string, columns: string[]) {
  const s = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  return (row: Row) => s.run(columns.map((c) => row[c]));
}

function replaceAll(row: Row, pairs: [string, string][]): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (typeof v !== 'string') {
      out[k] = v;
      continue;
    }
    let value = v;
    for (const [from, to] of pairs) if (value.includes(from)) value = value.replaceAll(from, to);
    out[k] = value;
  }
  return out;
}

interface Template {
  resourceId: string;
  attach: Row;
  photos: Row[];
  item: Row;
  /** Bytes of each photo scale and of the original, by their content path. */
  files: Map<string, Buffer>;
  /** The times its rows were written at (a second may have passed between two of them). */
  times: string[];
}

function readTemplate(hub: Hub, resourceId: string): Template {
  const db = hub.db;
  const attach = db.prepare('SELECT * FROM attach WHERE hash = ?').get(resourceId) as Row;
  const photos = db.prepare('SELECT * FROM photo WHERE resource_id = ? ORDER BY imgscale').all(resourceId) as Row[];
  const item = db.prepare("SELECT * FROM item WHERE resource_type = 'photo' AND resource_id = ?").get(resourceId) as Row;
  const files = new Map<string, Buffer>();
  for (const r of [attach, ...photos]) files.set(r.content as string, readFileSync(join(hub.dataDir, r.content as string)));
  const times = new Set<string>();
  for (const r of [attach, ...photos]) times.add(r.created as string).add(r.edited as string);
  for (const c of ['created', 'edited', 'commented', 'received', 'changed']) times.add(item[c] as string);
  return { resourceId, attach, photos, item, files, times: [...times] };
}

const isoTime = (dbDate: string) => `${dbDate.replace(' ', 'T')}Z`;
const hexName = (album: string) => Buffer.from(album, 'utf8').toString('hex');

/**
 * `count` photos of the owner in `albums` albums, as the photo service stores them: every scale and
 * the original as files of the store, the file record in the album's folder, the photo rows and
 * the hidden item through which a photo is liked and commented. Two photos (with and without a
 * description) are made by the service itself (services/photos.ts) with marks for their album,
 * title, description and file name; each photo is a copy of one with its own values, ids, dates
 * and files (the template's picture with a comment segment that makes its bytes its own). The
 * templates are removed at the end. Plus a profile photo, as the full set has.
 */
export async function seedHugePhotos(hub: Hub, rnd: Random, owner: ChannelRow, count: number, albums: number, years: number, tmpDir: string): Promise<PhotoSeedResult & { files: number; bytes: number }> {
  const db = hub.db;
  const names = Array.from({ length: albums }, (_, i) => `${albumName(rnd, i)} ${i + 1}`);
  const profile = join(tmpDir, 'profile.jpg');
  await writeFile(profile, await smallImage(rnd, 400, 400));
  await setProfilePhoto(hub, owner, { filepath: profile, originalFilename: 'me.jpg', mimetype: 'image/jpeg' });
  const templates: Template[] = [];
  for (const description of [MARK.description, '']) {
    const path = join(tmpDir, `template-${templates.length}.jpg`);
    await writeFile(path, await smallImage(rnd, 320, 240));
    const record = await createPhoto(hub, owner, { filepath: path, originalFilename: MARK.filename, mimetype: 'image/jpeg' }, { album: MARK.album, title: MARK.title, description });
    templates.push(readTemplate(hub, record.attach.hash));
  }
  const markFolder = templates[0]!.attach.folder as string;
  const folders = db.transaction(() => names.map((n) => ensureFolder(hub, owner, n)!))();
  const store = new StoreWriter(hub);
  const attachColumns = Object.keys(templates[0]!.attach).filter((c) => c !== 'id');
  const photoColumns = Object.keys(templates[0]!.photos[0]!).filter((c) => c !== 'id');
  const itemColumns = Object.keys(templates[0]!.item).filter((c) => c !== 'id');
  const putAttach = inserter(db, 'attach', attachColumns);
  const putPhoto = inserter(db, 'photo', photoColumns);
  const putItem = inserter(db, 'item', itemColumns);
  const itemId = db.prepare("SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'item'), 0), coalesce((SELECT max(id) FROM item), 0)) + 1").pluck();
  const now = Date.now();
  const start = now - years * 365 * 86400_000;
  const BATCH = 2000;
  for (let done = 0; done < count; ) {
    const end = Math.min(count, done + BATCH);
    db.transaction(() => {
      for (let i = done; i < end; i++) {
        const album = names[i % names.length]!;
        const folder = folders[i % names.length]!;
        const withDescription = rnd.chance(0.3);
        const t = templates[withDescription ? 0 : 1]!;
        const ms = start + ((i + rnd.next()) / count) * (now - start);
        const created = toDbDate(new Date(ms));
        const resourceId = randomHex64();
        const filename = `IMG_${String(10000 + i)}.jpg`;
        const itemUuid = uuidAt(ms);
        const mid = `${uuidAt(ms)}@${hub.hostname}`;
        const pairs: [string, string][] = [
          [t.resourceId, resourceId], [markFolder, folder.hash as string], [MARK.filename, filename], [MARK.title, photoTitle(rnd)],
          [MARK.description, withDescription ? photoTitle(rnd) : ''], [hexName(MARK.album), hexName(album)], [MARK.album, album],
          [t.item.uuid as string, itemUuid], [t.item.mid as string, mid],
          ...t.times.flatMap((old): [string, string][] => [[old, created], [isoTime(old), isoTime(created)]]),
        ];
        const contents = new Map<string, string>();
        for (const [path, bytes] of t.files) contents.set(path, store.write(distinctJpeg(bytes, i)));
        putAttach({ ...replaceAll(t.attach, pairs), content: contents.get(t.attach.content as string) });
        for (const p of t.photos) putPhoto({ ...replaceAll(p, pairs), content: contents.get(p.content as string) });
        const id = itemId.get() as number;
        putItem({ ...replaceAll(t.item, pairs), parent: id, sig: fakeSig() });
      }
    })();
    done = end;
  }
  // The templates go, rows and files, with the marks' folder.
  db.transaction(() => {
    for (const t of templates) {
      db.prepare('DELETE FROM photo WHERE resource_id = ?').run(t.resourceId);
      db.prepare('DELETE FROM attach WHERE hash = ?').run(t.resourceId);
      db.prepare('DELETE FROM item WHERE id = ?').run(t.item.id);
    }
    db.prepare('DELETE FROM attach WHERE hash = ?').run(markFolder);
  })();
  for (const t of templates) for (const path of t.files.keys()) rmSync(join(hub.dataDir, path), { force: true });
  return { photos: count, albums: names, files: store.files, bytes: store.bytes };
}

const KINDS = [
  { ext: 'txt', type: 'text/plain' },
  { ext: 'pdf', type: 'application/pdf' },
  { ext: 'zip', type: 'application/zip' },
  { ext: 'mp3', type: 'audio/mpeg' },
  { ext: 'csv', type: 'text/csv' },
];

/**
 * `count` small files (1–16 KiB) of the owner in a few folders, as stageAttachment stores an upload
 * (a file of the store and its file record), written in bulk; the big file goes through the service.
 */
export function seedHugeFiles(hub: Hub, rnd: Random, owner: ChannelRow, count: number, years: number): Omit<FileSeedResult, 'bigFile'> {
  const db = hub.db;
  const folders = db.transaction(() => ['Documents', 'Music', 'Archive', 'Receipts', ''].map((n) => ensureFolder(hub, owner, n)))();
  const store = new StoreWriter(hub);
  const now = Date.now();
  const start = now - years * 365 * 86400_000;
  const BATCH = 2000;
  for (let done = 0; done < count; ) {
    const end = Math.min(count, done + BATCH);
    db.transaction(() => {
      for (let i = done; i < end; i++) {
        const kind = rnd.pick(KINDS);
        const folder = rnd.pick(folders);
        const hash = randomHex64();
        const data = randomBytes(rnd.int(1024, 16 * 1024));
        const filename = `file-${i}.${kind.ext}`;
        const created = toDbDate(new Date(start + ((i + rnd.next()) / count) * (now - start)));
        insertAttach(db, {
          aid: owner.channel_account_id, uid: owner.channel_id, hash, creator: owner.channel_hash, filename, filetype: kind.type, filesize: data.length,
          revision: 0, folder: folder?.hash ?? '', flags: 0, is_dir: 0, is_photo: 0, os_storage: 1, os_path: folder ? `${folder.os_path}/${hash}` : hash,
          display_path: folder ? `${folder.display_path}/${filename}` : filename, content: store.write(data), created, edited: created, ...PUBLIC_ACL,
        });
      }
    })();
    done = end;
  }
  return { files: count, bytes: store.bytes };
}
