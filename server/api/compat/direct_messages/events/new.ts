import type { ApiRoute } from '../../../../http/api.js';
import { notFound } from '../../../../http/errors.js';
import { getXchanById } from '../../../../store/xchans.js';
import { sendDirectMessage } from '../../../../services/mail.js';
import { loadDmEvents } from '../../../../services/compat/direct-messages.js';
import { reply } from '../../reply.js';
import { messageCreateOf } from './input.js';

/** direct_messages/events/new: sends a message (Twitter's JSON event body); answers {"event": …}. */
export const directMessagesEventsNew: ApiRoute = {
  path: 'direct_messages/events/new',
  methods: ['POST'],
  auth: 'user',
  handler(req) {
    const { channel } = req.user();
    const input = messageCreateOf(req);
    const recipient = getXchanById(req.hub.db, Number(input.recipientId));
    if (!recipient || recipient.xchan_deleted) throw notFound('Recipient not found');
    const mail = sendDirectMessage(req.hub, channel, { recipient: recipient.xchan_hash, body: input.text });
    return reply({ event: loadDmEvents(req.hub, [mail])[0] }, 'event');
  },
};
