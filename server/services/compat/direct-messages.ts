import type { Hub } from '../../hub-context.js';
import type { ChannelRow, MailRow } from '../../store/rows.js';
import { compatDirectMessage, type CompatDirectMessage, type DirectMessageOptions } from '../../serializers/compat/direct-message.js';
import { dmEvent, type CompatDmEvent } from '../../serializers/compat/dm-event.js';
import { getXchansByHash } from '../../store/xchans.js';
import { loadUsers } from './users.js';

/** Renders the channel's messages as Twitter direct messages, reading the people in one batch. */
export function loadDirectMessages(hub: Hub, viewer: ChannelRow, mails: MailRow[], opts: DirectMessageOptions = {}): CompatDirectMessage[] {
  const users = loadUsers(hub, viewer, mails.flatMap((m) => [m.from_xchan, m.to_xchan]), { omit: ['uid'] });
  return mails.flatMap((mail) => {
    const sender = users.get(mail.from_xchan);
    const recipient = users.get(mail.to_xchan);
    return sender && recipient ? [compatDirectMessage({ mail, sender, recipient }, opts)] : [];
  });
}

/** The channel's messages as Direct Message Events (which name people by id only). */
export function loadDmEvents(hub: Hub, mails: MailRow[]): CompatDmEvent[] {
  const people = getXchansByHash(hub.db, [...new Set(mails.flatMap((m) => [m.from_xchan, m.to_xchan]))]);
  return mails.flatMap((mail) => {
    const sender = people.get(mail.from_xchan);
    const recipient = people.get(mail.to_xchan);
    return sender && recipient ? [dmEvent(mail, { id_str: String(sender.xchan_id) }, { id_str: String(recipient.xchan_id) })] : [];
  });
}
