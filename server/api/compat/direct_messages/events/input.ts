import type { ApiRequest } from '../../../../http/api.js';
import { badRequest } from '../../../../http/errors.js';

export interface MessageCreate {
  recipientId: string;
  text: string;
}

function object(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The `event` of a direct_messages/events/new request: Twitter's JSON body
 * `{"event": {"type": "message_create", "message_create": {"target": {"recipient_id"}, "message_data": {"text"}}}}`,
 * or the same as nested form fields (`event[message_create][target][recipient_id]=…`, as form-posting
 * clients send it), or a form field `event` holding the JSON. 400 for anything else.
 */
export function messageCreateOf(req: ApiRequest): MessageCreate {
  const body = object((req.ctx.request as { body?: unknown }).body);
  let event: unknown = body?.event;
  if (typeof event === 'string') {
    try {
      event = JSON.parse(event);
    } catch {
      throw badRequest('event is not valid JSON');
    }
  }
  const e = object(event);
  if (!e) throw badRequest('the body must be a JSON object {"event": {"type": "message_create", ...}}');
  if (e.type !== 'message_create') throw badRequest('event.type must be message_create');
  const mc = object(e.message_create);
  const target = object(mc?.target);
  const data = object(mc?.message_data);
  const recipient = target?.recipient_id;
  const recipientId = typeof recipient === 'number' ? String(recipient) : recipient;
  if (typeof recipientId !== 'string' || !/^\d{1,15}$/.test(recipientId.trim())) throw badRequest('event.message_create.target.recipient_id must be a user id');
  if (typeof data?.text !== 'string' || !data.text.trim()) throw badRequest('event.message_create.message_data.text is required');
  if (data.attachment !== undefined) throw badRequest('attachments in direct messages are not supported');
  return { recipientId: recipientId.trim(), text: data.text };
}
