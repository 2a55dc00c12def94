import type { Hub } from '../hub-context.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { getChannelByHash } from '../store/channels.js';
import { getConnection } from '../store/connections.js';
import { getConv, getMail, insertConv, insertMail, touchConv } from '../store/mail.js';
import type { ChannelRow, MailRow } from '../store/rows.js';
import { uuid } from '../util/ids.js';
import { NULL_DATE, nowDb } from '../util/time.js';
import { notify, NOTIFY } from './notifications.js';
import { defaultSubject } from '../content/subject.js';

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
 * Sends a direct message to a local channel. Sender and recipient each get their own copy (the
 * sender's already seen), the recipient is notified, all in one transaction. Returns the sender's copy.
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
  const recipient = getChannelByHash(db, recipientHash);
  if (!recipient) throw notFound('Recipient not found');
  if (getConnection(db, recipient.channel_id, sender.channel_hash)?.abook_blocked) throw forbidden('The recipient does not accept messages from you');
  const conv = answered ? getConv(db, answered.convid) : undefined;
  const title = (input.title?.trim() || (answered ? answered.title || conv?.subject : '') || defaultSubject(body)).slice(0, MAX_TITLE);

  return db.transaction(() => {
    const now = nowDb();
    const convid = conv ? conv.id : insertConv(db, { guid: uuid(), subject: title, creator: sender.channel_hash, recips: `${sender.channel_hash},${recipientHash}`, created: now });
    if (conv) touchConv(db, conv.id, now);
    const mid = `${uuid()}@${hub.hostname}`;
    const shared = { convid, mid, parent_mid: answered?.parent_mid || mid, from_xchan: sender.channel_hash, to_xchan: recipientHash, title, body, created: now, expires: NULL_DATE, mail_deleted: 0 };
    const sentId = insertMail(db, { ...shared, account_id: sender.channel_account_id, channel_id: sender.channel_id, mail_seen: 1 });
    const receivedId = insertMail(db, { ...shared, account_id: recipient.channel_account_id, channel_id: recipient.channel_id, mail_seen: 0 }, sentId);
    notify(hub, { uid: recipient.channel_id, ntype: NOTIFY.MAIL, actor: sender.channel_hash, msg: `${sender.channel_name} sent you a private message`, link: `${hub.baseUrl}/mail/${receivedId}`, otype: 'mail' });
    return getMail(db, sender.channel_id, sentId)!;
  })();
}
