import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { getItem, getItemTerms, itemVisibleTo } from '../../store/items.js';
import { getGroup, groupMemberHashes } from '../../store/groups.js';
import { follows } from '../../store/social-graph.js';
import { getNotificationRow, mastodonItemConfig } from '../../store/mastodon.js';
import { getChannel } from '../../store/channels.js';
import { TERM_HASHTAG } from '../../content/terms.js';
import { fromAclString } from '../../util/ids.js';
import { canView, isPublicAcl } from '../acl.js';
import { scopeCovers } from '../oauth2.js';
import { CONTENT_VERBS } from '../verbs.js';
import type { ItemEventKind } from '../item-events.js';
import { loadMastodonStatuses } from './statuses.js';
import { loadAccounts } from './accounts.js';
import { renderNotifications } from './notifications.js';

/** A stream as a client names it: its name and, for hashtag and list, the tag or list id. */
export interface StreamName {
  name: string;
  param?: string;
}

export const STREAM_NAMES = ['user', 'user:notification', 'public', 'public:local', 'public:remote', 'hashtag', 'hashtag:local', 'list', 'direct'] as const;

/**
 * The scope a token needs to open a stream, as Mastodon asks: read:statuses for the streams of
 * statuses and conversations, read:notifications for notifications. Each event is held again to the
 * scope its REST counterpart needs when it is sent, since the user stream carries both kinds.
 */
export const STREAM_SCOPES: Record<(typeof STREAM_NAMES)[number], string> = {
  user: 'read:statuses',
  'user:notification': 'read:notifications',
  public: 'read:statuses',
  'public:local': 'read:statuses',
  'public:remote': 'read:statuses',
  hashtag: 'read:statuses',
  'hashtag:local': 'read:statuses',
  list: 'read:statuses',
  direct: 'read:statuses',
};

/** Who opens streams: the token's channel (none for anonymous callers and app tokens), and its scopes (none without a token). */
export interface StreamCaller {
  viewer: ChannelRow | undefined;
  scopes: readonly string[] | undefined;
}

/** One listening client: who it is and what it listens to. */
export interface StreamClient extends StreamCaller {
  streams: StreamName[];
  send(stream: string[], event: string, payload: string): void;
}

export class StreamError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Whether a client's token (if it has one) grants the scope an event needs. */
function mayReceive(client: StreamCaller, scope: string): boolean {
  return client.scopes === undefined || scopeCovers(client.scopes, scope);
}

/** Checks what a client asks to listen to: the stream's scope, streams that need a channel, lists of its own. */
export function checkStream(hub: Hub, { viewer, scopes }: StreamCaller, s: StreamName): StreamName {
  if (!(STREAM_NAMES as readonly string[]).includes(s.name)) throw new StreamError(400, 'Unknown stream type');
  if (scopes && !scopeCovers(scopes, STREAM_SCOPES[s.name as keyof typeof STREAM_SCOPES])) throw new StreamError(403, 'Error: Access token does not have the required scopes');
  const personal = s.name === 'user' || s.name === 'user:notification' || s.name === 'list' || s.name === 'direct';
  if (personal && !viewer) throw new StreamError(401, 'Missing access token');
  if (s.name.startsWith('hashtag') && !s.param?.trim()) throw new StreamError(400, 'No tag for stream provided');
  if (s.name === 'list') {
    if (!s.param || !/^\d{1,15}$/.test(s.param) || !getGroup(hub.db, viewer!.channel_id, Number(s.param))) throw new StreamError(404, 'Permission denied');
  }
  return { name: s.name, param: s.name.startsWith('hashtag') ? s.param!.replace(/^#/, '').toLowerCase() : s.param };
}

const CONTENT = new Set<string>(CONTENT_VERBS);

function streamLabel(s: StreamName): string[] {
  return s.param !== undefined ? [s.name, s.param] : [s.name];
}

/**
 * Which of the client's streams an item belongs on. The caller checked that the client may see it;
 * deleted items are judged by the row as it was.
 */
function matching(hub: Hub, client: StreamClient, item: ItemRow, visibility: string | undefined): StreamName[] {
  const db = hub.db;
  const viewer = client.viewer;
  const isPublic = isPublicAcl(item) && !item.item_private;
  const listed = isPublic && visibility !== 'unlisted';
  let tags: string[] | undefined;
  const tagsOf = () => (tags ??= getItemTerms(db, item.id).filter((t) => t.ttype === TERM_HASHTAG).map((t) => t.term.toLowerCase()));
  return client.streams.filter((s) => {
    switch (s.name) {
      case 'user':
        if (!viewer) return false;
        return (
          item.author_xchan === viewer.channel_hash || item.owner_xchan === viewer.channel_hash || follows(db, viewer.channel_id, item.author_xchan) || follows(db, viewer.channel_id, item.owner_xchan) ||
          (visibility === 'direct' && fromAclString(item.allow_cid).includes(viewer.channel_hash))
        );
      case 'public':
        return listed;
      case 'public:local':
        return listed && item.item_origin === 1;
      case 'hashtag':
        return listed && tagsOf().includes(s.param!);
      case 'hashtag:local':
        return listed && item.item_origin === 1 && tagsOf().includes(s.param!);
      case 'list': {
        const members = groupMemberHashes(db, Number(s.param));
        return members.includes(item.author_xchan);
      }
      case 'direct':
        return visibility === 'direct';
      default:
        return false;
    }
  });
}

/** The clients listening on one hub, and what the hub's events become for them. */
export class StreamHub {
  private clients = new Set<StreamClient>();
  private closers = new Set<() => void>();

  constructor(private readonly hub: Hub) {
    hub.events.on('item', (kind: ItemEventKind, item: ItemRow) => this.onItem(kind, item));
    hub.events.on('notification', (uid: number, id: number) => this.onNotification(uid, id));
    hub.events.on('stopping', () => this.closeAll());
  }

  add(client: StreamClient, close: () => void): () => void {
    this.clients.add(client);
    this.closers.add(close);
    return () => {
      this.clients.delete(client);
      this.closers.delete(close);
    };
  }

  /** How many streams the clients listen to, all told. */
  get streamCount(): number {
    let n = 0;
    for (const c of this.clients) n += c.streams.length;
    return n;
  }

  closeAll(): void {
    for (const close of [...this.closers]) close();
    this.clients.clear();
    this.closers.clear();
  }

  private onItem(kind: ItemEventKind, written: ItemRow): void {
    if (!this.clients.size || !CONTENT.has(written.verb) || written.item_type !== 0) return;
    const db = this.hub.db;
    const visibility = mastodonItemConfig(db, [written.id]).get(written.id)?.visibility;
    if (kind === 'delete') {
      for (const c of this.clients) {
        if (!mayReceive(c, 'read:statuses') || !canView(db, written, c.viewer?.channel_hash)) continue;
        for (const s of matching(this.hub, c, written, visibility)) if (s.name !== 'direct' && s.name !== 'user:notification') c.send(streamLabel(s), 'delete', String(written.id));
      }
      return;
    }
    const item = getItem(db, written.id);
    if (!item || item.item_deleted || item.item_hidden || item.item_unpublished || item.item_delayed) return;
    const rendered = new Map<number, string>();
    for (const c of this.clients) {
      const observer = c.viewer?.channel_hash ?? '';
      if (!mayReceive(c, 'read:statuses') || !itemVisibleTo(db, item.id, observer)) continue;
      const streams = matching(this.hub, c, item, visibility);
      if (!streams.length) continue;
      const key = c.viewer?.channel_id ?? 0;
      let payload = rendered.get(key);
      if (payload === undefined) {
        payload = JSON.stringify(loadMastodonStatuses(this.hub, c.viewer, [item])[0]);
        rendered.set(key, payload);
      }
      for (const s of streams) {
        if (s.name === 'user:notification') continue;
        if (s.name === 'direct') {
          c.send(streamLabel(s), 'conversation', this.conversation(c.viewer!, item, payload));
          continue;
        }
        c.send(streamLabel(s), kind === 'create' ? 'update' : 'status.update', payload);
      }
    }
  }

  private conversation(viewer: ChannelRow, item: ItemRow, status: string): string {
    const people = [item.author_xchan, ...fromAclString(item.allow_cid)].filter((h, k, all) => h !== viewer.channel_hash && all.indexOf(h) === k);
    const accounts = loadAccounts(this.hub, viewer, people);
    return `{"id":"${item.parent || item.id}","unread":true,"accounts":${JSON.stringify(people.map((h) => accounts.get(h)).filter(Boolean))},"last_status":${status}}`;
  }

  private onNotification(uid: number, id: number): void {
    const listeners = [...this.clients].filter((c) => c.viewer?.channel_id === uid && mayReceive(c, 'read:notifications') && c.streams.some((s) => s.name === 'user' || s.name === 'user:notification'));
    if (!listeners.length) return;
    const channel = getChannel(this.hub.db, uid);
    const row = channel && getNotificationRow(this.hub.db, uid, id);
    const n = channel && row ? renderNotifications(this.hub, channel, [row])[0] : undefined;
    if (!n) return;
    const payload = JSON.stringify(n);
    for (const c of listeners) {
      const s = c.streams.find((x) => x.name === 'user' || x.name === 'user:notification')!;
      c.send(streamLabel(s), 'notification', payload);
    }
  }
}

const hubs = new WeakMap<Hub, StreamHub>();

/** The hub's stream registry, made on first use. */
export function streamsOf(hub: Hub): StreamHub {
  let s = hubs.get(hub);
  if (!s) hubs.set(hub, (s = new StreamHub(hub)));
  return s;
}
