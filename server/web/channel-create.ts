import type Router from '@koa/router';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { addChannelToAccount, ChannelCreationError } from '../services/channels.js';
import { setSessionChannel } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';
import { formField } from './session-forms.js';

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * "New channel" for the UI: POST /session/channels (nick, name) adds a channel to the logged-in
 * account and switches the session to it. The owner's session and CSRF header only; a taken or
 * malformed nickname is a 400 that says why (409 when taken).
 */
export function mountChannelCreate(router: Router, hub: Hub): void {
  router.post('/session/channels', async (ctx) => {
    assertSameOrigin(ctx);
    const session = currentSession(ctx);
    if (!session || ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(401, 'Log in first');
    const nick = formField(ctx, 'nick');
    const name = formField(ctx, 'name');
    if (nick.length > 255 || name.length > 1000) throw new HttpError(400, 'That nickname or name is too long');
    try {
      const channel = await addChannelToAccount(hub.db, { baseUrl: hub.baseUrl }, session.account_id, { nick, name });
      setSessionChannel(hub.db, session.id, channel.channel_id);
      ctx.status = 201;
      ctx.body = { success: true, channel: channel.channel_address, name: channel.channel_name };
    } catch (err) {
      if (!(err instanceof ChannelCreationError)) throw err;
      throw new HttpError(/already taken/.test(err.message) ? 409 : 400, sentence(err.message));
    }
  });
}
