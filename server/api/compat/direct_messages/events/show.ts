import type { ApiRequest, ApiRoute } from '../../../../http/api.js';
import type { MailRow } from '../../../../store/rows.js';
import { badRequest, notFound } from '../../../../http/errors.js';
import { getMail } from '../../../../store/mail.js';
import { loadDmEvents } from '../../../../services/compat/direct-messages.js';
import { reply } from '../../reply.js';

/** The caller's copy of the message the request's `id` names; 400 without an id, 404 for none of its messages. */
export function requestedMessage(req: ApiRequest): MailRow {
  const raw = req.params.str('id')?.trim();
  if (!raw) throw badRequest('id is required');
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('id must be a message id');
  const mail = getMail(req.hub.db, req.user().channel.channel_id, Number(raw));
  if (!mail) throw notFound(`There is no direct message with the id ${raw}.`);
  return mail;
}

/** direct_messages/events/show: one message as {"event": …}. */
export const directMessagesEventsShow: ApiRoute = {
  path: 'direct_messages/events/show',
  methods: ['GET'],
  auth: 'user',
  handler: (req) => reply({ event: loadDmEvents(req.hub, [requestedMessage(req)])[0] }, 'event'),
};
