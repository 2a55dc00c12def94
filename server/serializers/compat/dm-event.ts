import type { MailRow } from '../../store/rows.js';
import { bodyToText } from '../../content/render.js';
import { findTerms } from '../../content/terms.js';
import { compatEntities, type CompatEntities } from './entities.js';
import type { CompatUser } from './user.js';

/** A direct message as Twitter's Direct Message Events API shows it (ids and timestamps are strings). */
export interface CompatDmEvent {
  type: 'message_create';
  id: string;
  created_timestamp: string;
  message_create: {
    target: { recipient_id: string };
    sender_id: string;
    message_data: { text: string; entities: CompatEntities };
  };
}

export function dmEvent(mail: MailRow, sender: Pick<CompatUser, 'id_str'>, recipient: Pick<CompatUser, 'id_str'>): CompatDmEvent {
  const text = bodyToText(mail.body, mail.mimetype);
  const links = [...new Set([...text.matchAll(/\bhttps?:\/\/[^\s<>"']+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, '')))];
  return {
    type: 'message_create',
    id: String(mail.shared_id),
    created_timestamp: String(Date.parse(`${mail.created.replace(' ', 'T')}Z`)),
    message_create: {
      target: { recipient_id: recipient.id_str },
      sender_id: sender.id_str,
      message_data: { text, entities: compatEntities(text, { hashtags: findTerms(text).hashtags, mentions: [], links, media: [] }) },
    },
  };
}
