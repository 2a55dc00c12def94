import type { ApiRequest } from '../../../http/api.js';
import type { DirectMessageOptions } from '../../../serializers/compat/direct-message.js';
import type { CompatDirectMessage } from '../../../serializers/compat/direct-message.js';
import { reply, type CompatReply } from '../reply.js';

/** getText (html | plain | default) and getUserObjects (false drops sender and recipient). */
export function dmOptions(req: ApiRequest): DirectMessageOptions {
  const getText = req.params.str('getText')?.trim().toLowerCase();
  const userObjects = req.params.str('getUserObjects')?.trim().toLowerCase();
  return {
    text: getText === 'html' || getText === 'plain' ? getText : '',
    userObjects: !['false', '0', 'no', 'off', 'n'].includes(userObjects ?? ''),
  };
}

/** A list of direct messages (root direct-messages, children direct_message). */
export function dmListReply(dms: CompatDirectMessage[]): CompatReply {
  return reply(dms, 'direct-messages', { itemName: 'direct_message' });
}

/** A Friendica result envelope: {"result": "ok|error", "message": "..."}. */
export function resultReply(root: string, result: 'ok' | 'error', message: string): CompatReply {
  return reply({ result, message }, root);
}
