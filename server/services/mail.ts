import type { Hub } from '../hub-context.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { getChannelByHash } from '../store/channels.js';
import { getConnection } from '../store/connections.js';
import { getItem, itemVisibleTo } from '../store/items.js';
import { getConv, getMail, getMailOfItem } from '../store/mail.js';
import { getXchan } from '../store/xchans.js';
import type { ChannelRow, MailRow } from '../store/rows.js';
import { toAclString } from '../util/ids.js';
import { PUBLIC_ACL } from './acl.js';
import { createItem } from './items.js';

const MAX_BODY = 100_000;
const MAX_TITLE = 191;

export interface DirectMessageInput {
  /** Recipient xchan hash; may be left out when answering (replyTo): then it is the other party. */
  recipient?: string;
  body: string;
  title?: string;
  /** Id of a message being answered: continues its conversation and subject. */
  replyTo?: number;
}

/**
 * Sends a direct message to a channel of this hub or to someone elsewhere: a post for the two of
 * them alone (the Mastodon API's direct visibility), or an answer in the thread of the message it
 * answers, filed in the mailbox of each channel here (services/mailbox.ts) and sent to the other
 * server as a direct Note (createItem writes it all in one transaction). Returns the sender's copy.
 */
export function sendDirectMessage(hub: Hub, sender: ChannelRow, input: DirectMessageInput): MailRow {
  const db = hub.db;
  const body = input.body.trim();
  if (!body) throw badRequest('text not specified');
  if (body.length > MAX_BODY) throw badRequest(`text is too long (at most ${MAX_BODY} characters)`);
  const answered = input.replyTo !== undefined ? getMail(db, sender.channel_id, input.replyTo) : undefined;
  if (input.replyTo !== undefined && !answered) throw notFound('replyto: message not found');
  const otherParty = answered && (answered.from_xchan === sender.channel_hash ? answered.to_xchan : answered.from_xchan);
  const recipientHash = input.recipient ?? otherParty;
  if (!recipientHash) throw badRequest('recipient not specified: give user_id or screen_name');
  if (otherParty && recipientHash !== otherParty) throw badRequest('replyto belongs to a conversation with someone else');
  if (recipientHash === sender.channel_hash) throw badRequest('You cannot send a direct message to yourself');
  const local = getChannelByHash(db, recipientHash);
  const person = getXchan(db, recipientHash);
  if (!person || person.xchan_deleted || (!local && person.xchan_network !== 'activitypub')) throw notFound('Recipient not found');
  if (local && getConnection(db, local.channel_id, sender.channel_hash)?.abook_blocked) throw forbidden('The recipient does not accept messages from you');
  // An answer continues the thread of the message it answers, while that is there to answer.
  const thread = answered?.iid ? getItem(db, answered.iid) : undefined;
  const parent = thread && !thread.item_deleted && itemVisibleTo(db, thread.id, sender.channel_hash) ? thread : undefined;
  const subject = input.title?.trim() || (answered ? answered.title || getConv(db, answered.convid)?.subject : undefined);

  const item = createItem(hub, sender, {
    body,
    parentId: parent?.id,
    acl: { ...PUBLIC_ACL, allow_cid: toAclString([sender.channel_hash, recipientHash]) },
    mentions: [recipientHash],
    subject: subject?.slice(0, MAX_TITLE),
    iconfig: [{ cat: 'mastodon', k: 'visibility', v: 'direct' }],
  });
  return getMailOfItem(db, sender.channel_id, item.id)!;
}
