import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { escapeHtml } from '../content/render.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { approveRequest, denyRequest, pendingRequest } from '../services/oauth.js';
import { getChannel } from '../store/channels.js';
import type { OAuthClientRow } from '../store/oauth.js';
import type { ChannelRow } from '../store/rows.js';
import { currentSession } from './auth-pages.js';
import { errorBox, page } from './page.js';
import { formField, sessionOrLogin } from './session-forms.js';

/**
 * Where clients send the owner's browser; bti derives it from its API base (…/api/oauth/authorize).
 * Twitter's "Sign in with Twitter" page, oauth/authenticate, is the same page here (several
 * libraries use it by default).
 */
export const AUTHORIZE_PATHS = ['/oauth/authorize', '/api/oauth/authorize', '/api/1.1/oauth/authorize', '/oauth/authenticate', '/api/oauth/authenticate', '/api/1.1/oauth/authenticate'];

function show(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.body = page(title, body);
}

function invalid(ctx: Context): void {
  show(ctx, 400, 'Authorize application', `<h1>Authorize application</h1>${errorBox('Invalid request. Unknown token. Ask the application to start again.')}`);
}

function approvalForm(client: OAuthClientRow, channel: ChannelRow, token: string, csrf: string, action: string): string {
  const icon = /^https?:\/\//i.test(client.icon) ? `<p><img src="${escapeHtml(client.icon)}" alt="" width="64" height="64"></p>` : '';
  return `<h1>Authorize application connection</h1>${icon}
<p>Do you want to authorize <strong>${escapeHtml(client.name)}</strong> to access your posts and contacts and to create posts
as <strong>${escapeHtml(channel.channel_name)}</strong> (${escapeHtml(channel.channel_address)})?</p>
<p class="hint">You can revoke its access at any time in <a href="/settings/oauth/">connected applications</a>.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="oauth_token" value="${escapeHtml(token)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit" name="oauth_yes" value="Yes">Yes, allow</button>
<button type="submit" name="oauth_no" value="No">No</button>
</form>`;
}

/**
 * The OAuth 1.0a authorize step: the logged-in owner approves (or refuses) an app's request token
 * for the session's channel. Approval redirects to the app's callback with oauth_token and
 * oauth_verifier, or shows the verifier for apps without a callback.
 */
export function mountOAuthAuthorize(router: Router, hub: Hub): void {
  for (const path of AUTHORIZE_PATHS) {
    router.get(path, (ctx) => {
      const session = sessionOrLogin(ctx);
      if (!session) return;
      const token = typeof ctx.query.oauth_token === 'string' ? ctx.query.oauth_token : '';
      const pending = pendingRequest(hub, token);
      const channel = getChannel(hub.db, session.channel_id);
      if (!pending || !channel) return invalid(ctx);
      show(ctx, 200, 'Authorize application', approvalForm(pending.client, channel, token, session.csrf, ctx.path));
    });

    router.post(path, (ctx) => {
      try {
        assertSameOrigin(ctx);
      } catch (err) {
        if (err instanceof HttpError) return show(ctx, err.status, 'Authorize application', errorBox(err.message));
        throw err;
      }
      const session = currentSession(ctx);
      if (!session || formField(ctx, 'csrf') !== session.csrf) return show(ctx, 403, 'Authorize application', errorBox('Your session has expired; log in and try again.'));
      const token = formField(ctx, 'oauth_token') || (typeof ctx.query.oauth_token === 'string' ? ctx.query.oauth_token : '');
      const channel = getChannel(hub.db, session.channel_id);
      if (!channel || !pendingRequest(hub, token)) return invalid(ctx);
      if (!formField(ctx, 'oauth_yes')) {
        denyRequest(hub, token);
        return show(ctx, 200, 'Access refused', '<h1>Access refused</h1><p>The application was not allowed to use your channel. You can close this window.</p>');
      }
      const approval = approveRequest(hub, token, channel);
      if (!approval) return invalid(ctx);
      if (approval.redirect) {
        ctx.set('Cache-Control', 'no-store');
        return ctx.redirect(approval.redirect);
      }
      show(
        ctx,
        200,
        'Application authorized',
        `<h1>Application authorized</h1><p>Return to your application and enter this security code:</p>
<p><code id="oauth_verifier" style="font-size:1.4rem">${escapeHtml(approval.verifier)}</code></p>`,
      );
    });
  }
}
