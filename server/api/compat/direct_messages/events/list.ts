import type { ApiRoute } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';
import { listMail } from '../../../../store/mail.js';
import { loadDmEvents } from '../../../../services/compat/direct-messages.js';
import { reply } from '../../reply.js';

/**
 * direct_messages/events/list: the caller's sent and received messages, newest first, `count` (at most
 * 50) at a time; `next_cursor` (when more follow) is passed back as `cursor` for the next page.
 */
export const directMessagesEventsList: ApiRoute = {
  path: 'direct_messages/events/list',
  methods: ['GET'],
  auth: 'user',
  handler(req) {
    const { channel } = req.user();
    const count = req.params.clamped('count', 20, 1, 50);
    const cursor = req.params.str('cursor')?.trim();
    if (cursor && !/^\d{1,15}$/.test(cursor)) throw badRequest('cursor must be a next_cursor of an earlier answer');
    const mails = listMail(req.hub.db, channel.channel_id, {
      box: 'all',
      self: channel.channel_hash,
      maxId: cursor ? Number(cursor) - 1 : undefined,
      limit: count + 1,
      offset: 0,
    });
    const page = mails.slice(0, count);
    const answer: { events: ReturnType<typeof loadDmEvents>; next_cursor?: string } = { events: loadDmEvents(req.hub, page) };
    if (mails.length > count) answer.next_cursor = String(page[page.length - 1]!.shared_id);
    return reply(answer, 'events', { childNames: { events: 'event' } });
  },
};
