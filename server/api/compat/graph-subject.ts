import type { ApiRequest } from '../../http/api.js';
import { forbidden } from '../../http/errors.js';
import { resolveWho } from './who.js';

/** The caller's own identity; 403 when the request names somebody else (their lists are private here). */
export function ownGraphSubject(req: ApiRequest, what: string): void {
  const me = req.user().channel;
  const p = req.params;
  if (!p.str('user_id')?.trim() && !p.str('screen_name')?.trim() && !p.str('profileurl')?.trim()) return;
  const who = resolveWho(req, { orSelf: true });
  if (who.xchan_hash !== me.channel_hash) throw forbidden(`${what} of other users cannot be listed`);
}
