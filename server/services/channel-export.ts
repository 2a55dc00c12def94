import { readFileSync } from 'node:fs';
import type { Hub } from '../hub-context.js';
import { openDatabase, type Db } from '../db/open.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannel } from '../store/channels.js';
import { getProfilePhotoScale } from '../store/photos.js';
import {
  iterateMail, listConnectionXchans, listConversations, listGroupMemberRows, listPconfigRows,
  listPconfigRowsOfCat, listProfiles, listSavedSearches,
} from '../store/channel-export.js';
import { listAllGroups } from '../store/native-records.js';
import {
  exportPageItems, iterateResourceItems, iterateWallItems, iterateWebpageItems, type PortableItemRow,
} from '../store/item-streams.js';
import { channelRecord } from '../serializers/native/channel.js';
import { groupRecord } from '../serializers/native/group.js';
import { stringifyInts } from '../serializers/native/ints.js';
import { portableItem } from '../serializers/native/portable-item.js';
import { xchanColumns } from '../serializers/native/xchan.js';
import { jsonObjectChunks, LazyArray, type JsonMembers } from '../util/json-stream.js';
import { HEARTH_API_VERSION } from '../version.js';
import { toDbDate } from '../util/time.js';
import { isPermissionName, permissionLimit } from './permissions.js';
import { exportedConnections, exportedHublocs } from './connection-export.js';

/** What channel/export/basic returns when no sections are asked for (seed §4.1). */
export const DEFAULT_EXPORT_SECTIONS = ['channel', 'connections', 'config', 'apps', 'chatrooms', 'events', 'webpages', 'mail', 'wikis'];
/** Section names understood besides the defaults; others are ignored, as Hubzilla does. */
const EXTRA_SECTIONS = ['profile', 'items'];
/** The posts option covers this many months. */
const POSTS_MONTHS = 3;

/** The profile photo goes into the export at 300×300 (scale 4), as Hubzilla's does. */
const PROFILE_EXPORT_SCALE = 4;

/** Hubzilla's database version number, reported so that Hubzilla's importer accepts the export. */
const COMPAT_DATABASE_VERSION = '1263';

export function exportSections(requested: string[], posts: boolean): string[] {
  const known = new Set([...DEFAULT_EXPORT_SECTIONS, ...EXTRA_SECTIONS]);
  const chosen = requested.length ? requested.filter((s) => known.has(s)) : [...DEFAULT_EXPORT_SECTIONS];
  if (posts) for (const s of [...DEFAULT_EXPORT_SECTIONS, 'items']) if (!chosen.includes(s)) chosen.push(s);
  return [...new Set(chosen)];
}

/** The export's header: where the data came from. */
function provenance(hub: Hub, channel: ChannelRow): JsonMembers {
  return [
    ['compatibility', { project: 'hubzilla', version: HEARTH_API_VERSION, database: COMPAT_DATABASE_VERSION, server_role: 'pro' }],
    ['relocate', { channel_address: channel.channel_address, url: hub.baseUrl }],
  ];
}

/** Legacy per-channel permission columns (channel_r_stream…), derived from perm_limits as Hubzilla's export does. */
const LEGACY_LIMIT_COLUMNS: Record<string, string> = {
  channel_r_stream: 'view_stream', channel_r_profile: 'view_profile', channel_r_abook: 'view_contacts', channel_r_storage: 'view_storage',
  channel_r_pages: 'view_pages', channel_w_stream: 'send_stream', channel_w_wall: 'post_wall', channel_w_comment: 'post_comments',
  channel_w_mail: 'post_mail', channel_w_like: 'post_like', channel_w_chat: 'chat', channel_w_storage: 'write_storage',
  channel_w_pages: 'write_pages', channel_a_republish: 'republish', channel_a_delegate: 'delegate',
};

/**
 * The channel row with what Hubzilla's importer reads of its permissions: the legacy limit columns
 * and `perm_limits`, the channel's perm_limits pconfig rows (every channel has them, see
 * DEFAULT_CHANNEL_CONFIG).
 */
function channelSection(db: Db, channel: ChannelRow): Record<string, unknown> {
  const record: Record<string, unknown> = channelRecord(channel);
  for (const [column, perm] of Object.entries(LEGACY_LIMIT_COLUMNS)) {
    if (isPermissionName(perm)) record[column] = String(permissionLimit(db, channel.channel_id, perm));
  }
  record.perm_limits = listPconfigRowsOfCat(db, channel.channel_id, 'perm_limits').map(stringifyInts);
  return record;
}

function* profileMembers(hub: Hub, db: Db, channel: ChannelRow): JsonMembers {
  yield ['profile', listProfiles(db, channel.channel_id).map(stringifyInts)];
  const photo = getProfilePhotoScale(db, channel.channel_id, PROFILE_EXPORT_SCALE);
  const key = photo && hub.files.keyOf(photo.content);
  if (photo && key) {
    try {
      yield ['photo', { type: photo.mimetype, data: readFileSync(hub.files.path(key)).toString('base64url') }];
    } catch {
      // A photo whose bytes are gone is left out rather than exported empty.
    }
  }
}

function items(rows: () => Iterable<PortableItemRow>, baseUrl: string): LazyArray {
  return new LazyArray(function* () {
    for (const row of rows()) yield portableItem(row, { mirror: true, chanviewBase: baseUrl });
  });
}

function* sectionMembers(hub: Hub, db: Db, channel: ChannelRow, section: string): JsonMembers {
  const uid = channel.channel_id;
  switch (section) {
    case 'channel':
      yield ['channel', channelSection(db, channel)];
      yield* profileMembers(hub, db, channel);
      return;
    case 'profile':
      yield* profileMembers(hub, db, channel);
      return;
    case 'connections':
      yield ['abook', exportedConnections(db, channel)];
      yield ['xchan', listConnectionXchans(db, uid).map((x) => xchanColumns(x as unknown as Record<string, unknown>))];
      yield ['hubloc', exportedHublocs(db, channel, hub.baseUrl)];
      // Hearth has no guest tokens.
      yield ['atoken', []];
      yield ['group', listAllGroups(db, uid).map(groupRecord)];
      yield ['group_member', listGroupMemberRows(db, uid).map(stringifyInts)];
      return;
    case 'config':
      yield ['config', listPconfigRows(db, uid).map(stringifyInts)];
      // Saved searches are terms of type 6 (search) in Hubzilla's export.
      yield ['term', listSavedSearches(db, uid).map((s) => ({
        tid: String(s.id), aid: String(channel.channel_account_id), uid: String(uid), oid: '0', otype: '0', ttype: '6',
        term: s.term, url: '', imgurl: '', term_hash: '', parent_hash: '',
      }))];
      yield ['obj', []];
      yield ['likes', []];
      return;
    case 'apps':
      yield ['app', []];
      yield ['sysapp', []];
      return;
    case 'chatrooms':
      yield ['chatroom', []];
      return;
    case 'events':
      yield ['event', []];
      yield ['event_item', items(() => iterateResourceItems(db, uid, 'event'), hub.baseUrl)];
      return;
    case 'webpages':
      yield ['menu', []];
      yield ['webpages', items(() => iterateWebpageItems(db, uid), hub.baseUrl)];
      return;
    case 'mail':
      yield ['conv', listConversations(db, uid).map(stringifyInts)];
      yield ['mail', new LazyArray(function* () {
        for (const m of iterateMail(db, uid)) yield stringifyInts(m);
      })];
      return;
    case 'wikis':
      yield ['wiki', items(() => iterateResourceItems(db, uid, 'nwiki'), hub.baseUrl)];
      return;
    case 'items': {
      const since = new Date();
      since.setUTCMonth(since.getUTCMonth() - POSTS_MONTHS);
      yield ['item', items(() => iterateWallItems(db, uid, toDbDate(since)), hub.baseUrl)];
      return;
    }
  }
}

/**
 * Runs `produce` on a read-only connection of its own holding one snapshot: the export is
 * consistent, and iterating it never blocks writes on the hub's connection.
 */
function* onSnapshot(hub: Hub, produce: (db: Db) => Generator<string>): Generator<string> {
  const db = openDatabase(hub.db.name, { readonly: true });
  try {
    // The export reads each page about once: a small page cache does as well as the default 16 MB.
    db.pragma('cache_size = -2000');
    db.exec('BEGIN');
    yield* produce(db);
  } finally {
    db.close();
  }
}

/** channel/export/basic as JSON text, produced while the client reads it. */
export function channelExportChunks(hub: Hub, channelId: number, sections: string[]): Generator<string> {
  return onSnapshot(hub, function* (db) {
    const channel = getChannel(db, channelId);
    if (!channel) return yield '{}';
    yield* jsonObjectChunks(
      (function* () {
        yield* provenance(hub, channel);
        for (const s of sections) yield* sectionMembers(hub, db, channel, s);
      })(),
    );
  });
}

export interface ExportPageQuery {
  since: string;
  until: string;
  page: number;
  records: number;
}

/**
 * item/export_page: one page of the channel's items in the backup form. A page is small enough to
 * be read at once on the hub's connection, which is one snapshot while it runs.
 */
export function exportPage(hub: Hub, channel: ChannelRow, q: ExportPageQuery): Record<string, unknown> {
  const { total, items } = exportPageItems(hub.db, { uid: channel.channel_id, since: q.since, until: q.until, limit: q.records, offset: q.page * q.records });
  const page: Record<string, unknown> = {
    relocate: { channel_address: channel.channel_address, url: hub.baseUrl },
    items_total: String(total),
    items_page: String(q.records),
  };
  // As in Hubzilla, a page past the end has no item key: importers stop there.
  if (items.length) page.item = items.map((row) => portableItem(row, { mirror: true, chanviewBase: hub.baseUrl }));
  return page;
}
