import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { getOwnerAccount, insertAccount } from '../../store/accounts.js';
import { generateChannelKeys, getChannel, getChannelByHash, insertChannel, localAddress, nickProblem, NICK_PATTERN } from '../../store/channels.js';
import { channelWithIdentity, findImportBySource, insertImport, replaceIdentity, setImportState, xchanHashesOfGuid, type ChannelImportRow } from '../../store/channel-import.js';
import { setPConfig } from '../../store/config.js';
import { getXchan } from '../../store/xchans.js';
import { hashPassword, passwordProblem } from '../../auth/passwords.js';
import { DEFAULT_CHANNEL_CONFIG } from '../permissions.js';
import { DEFAULT_CHUNK_BYTES, importFiles } from './files.js';
import { IdentityMap } from './identities.js';
import { importItem, type ItemContext } from './items.js';
import { LinkRewriter } from './links.js';
import { NativeClient, normaliseSourceUrl, SourceError, str, num, type Json } from './native-client.js';
import { failedSummary, SkipList, type Counter, type ImportPhase, type ImportProgress, type ImportSummary } from './progress.js';
import { importProfile, importSocial } from './social.js';

export interface ImportRequest {
  /** The source hub (its base URL; a host name alone means https). */
  from: string;
  /** Nickname (or account email) and password of the channel on the source hub. */
  user: string;
  password: string;
}

export interface ImportOptions {
  /** Interrupts the import; what is in stays, and running it again resumes. */
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  fetch?: typeof fetch;
  /** Items asked for per item/export_page call. */
  pageSize?: number;
  /** Bytes asked for per filedata call. */
  chunkBytes?: number;
  /** Time the source has for each answer. */
  timeoutMs?: number;
  /** Largest answer of the source that is read (a document, a chunk of a file). */
  maxAnswerBytes?: number;
  /** Most posts, comments and likes taken from the source, whatever it announces. */
  maxItems?: number;
}

/** Refused before anything was written (no account here and an unusable password, an import into itself…). */
export class ImportError extends Error {}

const DEFAULT_PAGE_SIZE = 100;
/** item/export_page answers are never larger than this (Hubzilla's limit). */
const MAX_PAGE_SIZE = 1000;
/** Most posts, comments and likes one import takes (years of a busy channel fit well within it). */
export const MAX_ITEMS = 1_000_000;
/** Most comments and likes held back until their thread arrives (an export lists threads first). */
const MAX_WAITING = 10_000;

/** What is wrong with the source's address as a person typed it (file://, ftp://, not a URL…); undefined when it is an http(s) URL or a host name. */
export function sourceAddressProblem(from: string): string | undefined {
  try {
    normaliseSourceUrl(from);
    return undefined;
  } catch (err) {
    if (err instanceof SourceError) return err.message;
    throw err;
  }
}

/** A nickname free on this hub: the source's, else the same with -2, -3… */
function freeNick(hub: Hub, wanted: string): string {
  let base = wanted.toLowerCase().replace(/[^a-z0-9_-]/g, '-').replace(/^[^a-z]+/, '').slice(0, 28);
  if (!NICK_PATTERN.test(base)) base = `channel${base}`.slice(0, 28);
  if (!nickProblem(hub.db, base)) return base;
  for (let i = 2; ; i++) if (!nickProblem(hub.db, `${base}-${i}`)) return `${base}-${i}`;
}

interface Source {
  url: string;
  apiUrl: string;
  nick: string;
  hash: string;
  guid: string;
  address: string;
  channelId: string;
}

/**
 * The channel for the source identity: the one an earlier run of this import made (resume), or a
 * new one, on the owner account (made with the source's password when this hub has none yet).
 * Keys are never moved: a new channel gets a key and identity of its own. Where channels moved
 * here before refer to the source identity, they now refer to the new one.
 */
async function targetChannel(hub: Hub, source: Source, exp: Json, req: ImportRequest): Promise<{ channel: ChannelRow; job: ChannelImportRow | undefined; renamedFrom?: string }> {
  const job = findImportBySource(hub.db, source.hash);
  const existing = job && getChannel(hub.db, job.channel_id);
  if (job && existing) {
    // Only the hub a channel came from may go on with it: another one could name the same identity.
    if (job.source_url !== source.apiUrl) {
      throw new ImportError(`${source.nick} came here from ${job.source_url} (as ${existing.channel_address}): only that hub can go on with its import, not ${source.apiUrl}`);
    }
    return { channel: existing, job };
  }
  const owner = getOwnerAccount(hub.db);
  const problem = owner ? undefined : passwordProblem(req.password);
  if (problem) throw new ImportError(`this hub has no account yet and the source's password cannot be its password: ${problem}`);
  const passwordHash = owner ? undefined : await hashPassword(req.password);
  const keys = await generateChannelKeys();
  const name = str((exp.channel as Json | undefined)?.channel_name).trim().slice(0, 190) || source.nick;
  const channel = hub.db.transaction(() => {
    const nick = freeNick(hub, source.nick);
    const accountId = getOwnerAccount(hub.db)?.account_id ?? insertAccount(hub.db, '', passwordHash!);
    const ch = insertChannel(hub.db, { accountId, nick, name, baseUrl: hub.baseUrl, keys });
    for (const c of DEFAULT_CHANNEL_CONFIG) setPConfig(hub.db, ch.channel_id, c.cat, c.k, c.v);
    insertImport(hub.db, { channel_id: ch.channel_id, source_url: source.apiUrl, source_nick: source.nick, source_hash: source.hash, source_guid: source.guid, source_address: source.address });
    return ch;
  })();
  // Channels moved here before may know the source identity (as a connection, a group member, an
  // author): it is this channel now. Only an identity on the hub the channel comes from, though,
  // and never a channel of this hub: a hub speaks for its own channels alone.
  const known = new Set([source.hash, ...(source.guid ? xchanHashesOfGuid(hub.db, source.guid) : [])]);
  const sourceHost = new URL(source.apiUrl).host.toLowerCase();
  for (const old of known) {
    const x = old !== channel.channel_hash ? getXchan(hub.db, old) : undefined;
    if (!x || channelWithIdentity(hub.db, { hash: old })) continue;
    if (x.xchan_addr.split('@').pop()!.toLowerCase() !== sourceHost) continue;
    replaceIdentity(hub.db, old, channel.channel_hash);
  }
  return { channel, job: findImportBySource(hub.db, source.hash), renamedFrom: channel.channel_address !== source.nick ? source.nick : undefined };
}

/**
 * Moves a channel here from another hub that speaks the native API (a Hubzilla, another Hearth):
 * identity and profile, connections and their permissions, privacy groups, settings, every file
 * and photo, every post, comment and like with its original message id, dates and audience.
 * Reports progress as it goes; can be interrupted (opts.signal) and run again to resume: message
 * ids and file hashes are the keys, so nothing is imported twice. Each item and each file is
 * written whole or not at all. Returns the summary (also when interrupted or failed).
 */
export async function importChannel(hub: Hub, req: ImportRequest, opts: ImportOptions = {}): Promise<ImportSummary> {
  const skips = new SkipList();
  const items: Counter = { done: 0, total: 0 };
  const files: Counter = { done: 0, total: 0 };
  const bytes: Counter = { done: 0, total: 0 };
  let phase: ImportPhase = 'connecting';
  const report = (message: string) => opts.onProgress?.({ phase, items: { ...items }, files: { ...files }, bytes: { ...bytes }, message });
  const summary = failedSummary(req.from, req.user);
  let job: ChannelImportRow | undefined;
  try {
    const client = new NativeClient(req.from, req.user, req.password, {
      signal: opts.signal, fetch: opts.fetch, timeoutMs: opts.timeoutMs, maxAnswerBytes: opts.maxAnswerBytes,
    });
    summary.source.url = client.baseUrl;
    report(`Connecting to ${client.baseUrl}`);
    const me = await client.verify();
    const exp = await client.exportBasic();
    const ch = (exp.channel ?? {}) as Json;
    const relocate = (exp.relocate ?? {}) as Json;
    const source: Source = {
      url: str(relocate.url) || client.baseUrl,
      apiUrl: client.baseUrl,
      nick: str(relocate.channel_address) || str(ch.channel_address) || str(me.channel_address),
      hash: str(ch.channel_hash) || str(me.channel_hash),
      guid: str(ch.channel_guid) || str(me.channel_guid),
      address: str(me.xchan_addr),
      channelId: str(ch.channel_id) || str(me.channel_id),
    };
    summary.source = { url: source.url, nick: source.nick, address: source.address };
    if (!source.hash || !source.nick) throw new SourceError(`${client.baseUrl} did not say which channel ${req.user} is`);
    if (getChannelByHash(hub.db, source.hash)) throw new ImportError(`${source.nick} is a channel of this hub already`);
    if (channelWithIdentity(hub.db, { hash: source.hash, guid: source.guid })) {
      throw new ImportError(`${client.baseUrl} claims that ${source.nick} is a channel of this hub (by its identity): it is not imported`);
    }

    const target = await targetChannel(hub, source, exp, req);
    job = target.job;
    if (job) setImportState(hub.db, job.id, 'running');
    let channel = target.channel;
    summary.channel = { id: channel.channel_id, nick: channel.channel_address, name: channel.channel_name, address: localAddress(hub.baseUrl, channel.channel_address) };
    if (target.renamedFrom) {
      summary.renamedFrom = target.renamedFrom;
      summary.notes.unshift(`The nickname ${target.renamedFrom} is taken on this hub: the channel was imported as ${channel.channel_address}.`);
    }

    phase = 'profile';
    report('Profile');
    summary.imported.profilePhoto = await importProfile(hub, channel, exp, skips);
    channel = getChannel(hub.db, channel.channel_id)!;
    summary.channel.name = channel.channel_name;

    phase = 'connections';
    report('Connections and privacy groups');
    const ids = new IdentityMap(hub.db, { hash: source.hash, guid: source.guid }, channel.channel_hash, Array.isArray(exp.xchan) ? (exp.xchan as Json[]) : [], new URL(hub.baseUrl).host);
    const social = importSocial(hub, channel, ids, exp, skips);
    // A Hearth's export lists the channel's direct messages; they are not moved (yet).
    for (const m of Array.isArray(exp.mail) ? (exp.mail as Json[]) : []) skips.add('a direct message (direct messages are not moved)', str(m.title) || str(m.mid));
    Object.assign(summary.imported, { connections: social.connections, groups: social.groups, members: social.members });
    channel = getChannel(hub.db, channel.channel_id)!;

    const fileMap = new Map<string, string>();
    const albumMap = new Map<string, string>();
    const bases = [...new Set([source.url, source.apiUrl])];
    const ctx: ItemContext = {
      hub, channel, ids, groups: social.groupMap,
      links: new LinkRewriter({ bases, nick: source.nick, channelId: source.channelId }, { base: hub.baseUrl, nick: channel.channel_address, channelId: String(channel.channel_id) }, fileMap, albumMap),
    };
    const importedNow = new Set<string>();
    const waiting: Json[] = [];
    /** Imports an item and counts what happened; false when its conversation is not here yet. */
    const take = (p: Json, counted: boolean, retry = false): boolean => {
      const outcome = importItem(ctx, p);
      if (outcome.kind === 'waiting') {
        if (retry) return false;
        // Kept until their thread arrives; a source may send any number that never find one.
        if (waiting.length < MAX_WAITING) {
          waiting.push(p);
          return false;
        }
        skips.add('its conversation is not part of the export', str(p.message_id));
        if (counted) items.done++;
        return true;
      }
      const mid = str(p.message_id);
      if (outcome.kind === 'imported') {
        summary.imported.items++;
        importedNow.add(mid);
      } else if (outcome.kind === 'skipped') skips.add(outcome.reason, mid);
      else if (!importedNow.has(mid)) skips.add('already imported', mid);
      if (counted) items.done++;
      return true;
    };

    phase = 'files';
    report('Files and photos');
    const filed = await importFiles({
      hub, channel, client, ids, groups: social.groupMap, skips, signal: opts.signal, chunkBytes: Math.max(1, opts.chunkBytes ?? DEFAULT_CHUNK_BYTES),
      files, bytes, onProgress: report, fileMap, albumMap,
      // A photo's comments and likes are not counted among the export's items (Hubzilla leaves them out of it).
      importConversation: (list) => list.forEach((p) => take(p, false)),
    });
    Object.assign(summary.imported, { files: filed.files, photos: filed.photos, bytes: filed.bytes });

    phase = 'items';
    report('Posts, comments and likes');
    const pageSize = Math.min(Math.max(1, opts.pageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
    // As many as the source announced on its first page (and a page more, for posts written
    // meanwhile), never more than the maximum: a source that keeps sending is not read for ever.
    let announced = 0;
    let limit = 0;
    let received = 0;
    for (let page = 0; ; page++) {
      opts.signal?.throwIfAborted();
      const answer = await client.exportPage(page, pageSize);
      if (page === 0) {
        announced = 'items_total' in answer ? num(answer.items_total) : Infinity;
        limit = Math.min(announced + pageSize, opts.maxItems ?? MAX_ITEMS);
        items.total = Math.min(announced, limit);
      }
      const list = Array.isArray(answer.item) ? (answer.item as Json[]) : [];
      if (!list.length) break;
      const taken = list.slice(0, limit - received);
      received += taken.length;
      for (const p of taken) take(p, true);
      report(`Posts, comments and likes: page ${page + 1}`);
      if (received >= limit || page + 1 > limit / pageSize + 1) {
        const said = Number.isFinite(announced) ? `announced ${announced}` : 'did not say how many';
        summary.notes.push(`${client.baseUrl} ${said} posts, comments and likes; the import stopped after ${received}, the most it takes from it.`);
        break;
      }
    }
    // Comments whose thread came later in the export, until no more find theirs.
    for (let progress = true; progress && waiting.length; ) {
      progress = false;
      for (let i = 0; i < waiting.length; ) {
        if (take(waiting[i]!, true, true)) {
          waiting.splice(i, 1);
          progress = true;
        } else i++;
      }
    }
    for (const p of waiting) {
      skips.add('its conversation is not part of the export', str(p.message_id));
      items.done++;
    }
    phase = 'done';
    summary.state = 'done';
    report('Done');
  } catch (err) {
    if (opts.signal?.aborted) {
      summary.state = 'interrupted';
      summary.notes.push('Run the same import again to resume: what is here already is skipped, nothing is imported twice.');
    } else if (err instanceof SourceError || err instanceof ImportError) {
      summary.error = err.message;
    } else {
      summary.error = `unexpected error: ${(err as Error).message}`;
      hub.log.error('channel import failed', err);
    }
  }
  summary.skipped = skips.list();
  if (job) setImportState(hub.db, job.id, summary.state, JSON.stringify(summary));
  return summary;
}
