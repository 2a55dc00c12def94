import type { ApiRequest } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { loadDirectMessages } from '../../../services/compat/direct-messages.js';
import { listMail, type MailQuery } from '../../../store/mail.js';
import { flag, idBound, timelinePage } from '../params.js';
import { resolveWho } from '../who.js';
import { dmListReply, dmOptions, resultReply } from './options.js';

const NAMES_A_USER = ['user_id', 'screen_name', 'profileurl'];

/**
 * The DM lists (inbox, sent, all, one conversation): newest first, count/page/since_id/max_id/min_id
 * paging, optionally only the messages exchanged with one person (user_id / screen_name).
 */
export function listDirectMessages(req: ApiRequest, box: MailQuery['box'], parentMid?: string) {
  const { channel } = req.user();
  const page = timelinePage(req.params);
  const minId = idBound(req.params, 'min_id');
  const correspondent = NAMES_A_USER.some((n) => req.params.str(n)?.trim()) ? resolveWho(req, { orSelf: false }).xchan_hash : undefined;
  const mails = listMail(req.hub.db, channel.channel_id, {
    box,
    self: channel.channel_hash,
    parentMid,
    correspondent,
    sinceId: page.sinceId,
    maxId: page.maxId,
    minId,
    limit: page.count,
    offset: page.offset,
  });
  if (!mails.length && flag(req.params, 'friendica_verbose')) return resultReply('direct-messages', 'error', 'no mails available');
  return dmListReply(loadDirectMessages(req.hub, channel, mails, dmOptions(req)));
}

/** direct_messages/conversation: the `uri` (friendica_parent_uri) of the conversation. */
export function conversationUri(req: ApiRequest): string {
  const uri = req.params.str('uri')?.trim();
  if (!uri) throw badRequest('uri not specified');
  return uri;
}
