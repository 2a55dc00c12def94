import type { Hub } from '../hub-context.js';
import type { ItemRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { setIconfig } from '../store/items.js';
import { getConvByGuid, holdsMail, insertConv, insertMail, sharedIdOfItem, touchConv } from '../store/mail.js';
import { mastodonItemConfig } from '../store/mastodon.js';
import { getXchan } from '../store/xchans.js';
import { bodyToText } from '../content/render.js';
import { defaultSubject } from '../content/subject.js';
import { fromAclString } from '../util/ids.js';
import { NULL_DATE } from '../util/time.js';
import { notify, NOTIFY } from './notifications.js';

/**
 * Direct messages have one source of truth: the item. A message is a post (or an answer in its
 * thread) with the Mastodon visibility 'direct', its audience the people it is between — whether a
 * Mastodon app, the microblog API, the UI or another server wrote it — so the Mastodon API shows it
 * as a conversation and the federation sends it as a direct Note. Each channel of the hub it is
 * between also has a copy of it in its mailbox (a mail row naming the item): what the microblog
 * API's direct messages and the UI's Messages list, with that channel's seen flag and subject, and
 * which that channel may delete from its mailbox alone.
 */

const MAX_TITLE = 191;

/** Whether a thread is a direct conversation. */
export function isDirectThread(hub: Hub, top: ItemRow): boolean {
  return mastodonItemConfig(hub.db, [top.id]).get(top.id)?.visibility === 'direct';
}

export interface FilingOptions {
  /** The message's subject; otherwise its conversation's, or the start of its text. */
  subject?: string;
  /** Only into the mailboxes of these identities (a message that came for more channels later). */
  only?: string[];
}

/**
 * Files an item of a direct thread (its top or an answer in it) in the mailbox of each channel of
 * the hub it is between, and tells those it was written to. Channels holding a copy already are
 * left alone. Runs inside the caller's transaction. Answers the channels told (by id).
 */
export function fileDirectMessage(hub: Hub, item: ItemRow, top: ItemRow, o: FilingOptions = {}): Set<number> {
  const told = new Set<number>();
  if (!isDirectThread(hub, top)) return told;
  const db = hub.db;
  // An answer in a direct thread is direct as well, whatever the client said.
  if (item.id !== top.id) setIconfig(db, item.id, 'mastodon', 'visibility', 'direct');
  const people = [top.author_xchan, ...fromAclString(top.allow_cid)].filter((h, k, all) => all.indexOf(h) === k);
  const others = people.filter((h) => h !== item.author_xchan);
  if (!others.length) return told;
  const text = bodyToText(top.body, top.mimetype);
  // One conversation per thread, named by the thread's message id.
  const known = getConvByGuid(db, top.mid);
  const title = (o.subject?.trim() || known?.subject || defaultSubject(text)).slice(0, MAX_TITLE);
  if (known) touchConv(db, known.id, item.created);
  const convid = known?.id ?? insertConv(db, { guid: top.mid, subject: title, creator: top.author_xchan, recips: people.join(','), created: item.created });

  const copies = [
    { hash: item.author_xchan, to: others[0]!, seen: 1 },
    ...others.map((hash) => ({ hash, to: hash, seen: 0 })),
  ].filter((c) => !o.only || o.only.includes(c.hash));
  let sharedId = sharedIdOfItem(db, item.id);
  const author = getXchan(db, item.author_xchan);
  for (const c of copies) {
    const channel = getChannelByHash(db, c.hash);
    if (!channel || channel.channel_removed || holdsMail(db, channel.channel_id, item.mid)) continue;
    const id = insertMail(
      db,
      {
        convid, mid: item.mid, parent_mid: top.mid, account_id: channel.channel_account_id, channel_id: channel.channel_id,
        from_xchan: item.author_xchan, to_xchan: c.to, title, body: '', created: item.created, expires: NULL_DATE,
        mail_seen: c.seen, mail_deleted: 0, iid: item.id,
      },
      sharedId,
    );
    sharedId ??= id;
    if (c.seen) continue;
    const msg = `${author?.xchan_name || 'Someone'} sent you a private message`;
    if (notify(hub, { uid: channel.channel_id, ntype: NOTIFY.MAIL, actor: item.author_xchan, msg, link: `${hub.baseUrl}/mail/${sharedId}`, iid: item.id, parent: top.id, verb: item.verb, otype: 'mail' })) told.add(channel.channel_id);
  }
  return told;
}
