import type { MailRow } from '../../store/rows.js';
import { bodyToText, renderBody } from '../../content/render.js';
import { twitterDate } from '../../util/time.js';
import type { CompatUser } from './user.js';

/**
 * getText: html gives the body as HTML; '' and plain give its text, exactly as it was sent
 * (Twitter clients show `text` as the message). The subject is always in `title`.
 */
export type DirectMessageText = '' | 'html' | 'plain';

/** A Twitter direct message with the Friendica additions (notes §2.6). */
export interface CompatDirectMessage {
  id: number;
  id_str: string;
  sender_id: number;
  sender_id_str: string;
  text: string;
  recipient_id: number;
  recipient_id_str: string;
  created_at: string;
  sender_screen_name: string;
  recipient_screen_name: string;
  sender?: CompatUser;
  recipient?: CompatUser;
  title: string;
  friendica_seen: boolean;
  friendica_parent_uri: string;
}

export interface DirectMessageFacts {
  mail: MailRow;
  sender: CompatUser;
  recipient: CompatUser;
}

export interface DirectMessageOptions {
  text?: DirectMessageText;
  /** getUserObjects=false leaves out sender and recipient. */
  userObjects?: boolean;
}

/** Builds a direct message from the channel's copy and the two users. Pure. */
export function compatDirectMessage(f: DirectMessageFacts, opts: DirectMessageOptions = {}): CompatDirectMessage {
  const m = f.mail;
  const mode = opts.text ?? '';
  const plain = bodyToText(m.body, m.mimetype);
  const text = mode === 'html' ? renderBody(m.body, m.mimetype) : plain;
  const dm: CompatDirectMessage = {
    id: m.shared_id,
    id_str: String(m.shared_id),
    sender_id: f.sender.id,
    sender_id_str: f.sender.id_str,
    text,
    recipient_id: f.recipient.id,
    recipient_id_str: f.recipient.id_str,
    created_at: twitterDate(m.created),
    sender_screen_name: f.sender.screen_name,
    recipient_screen_name: f.recipient.screen_name,
    sender: f.sender,
    recipient: f.recipient,
    title: m.title,
    friendica_seen: m.mail_seen !== 0,
    friendica_parent_uri: m.parent_mid,
  };
  if (opts.userObjects === false) {
    delete dm.sender;
    delete dm.recipient;
  }
  return dm;
}
