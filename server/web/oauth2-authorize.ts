import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Hub } from '../hub-context.js';
import { escapeHtml } from '../content/render.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import {
  approvalRedirect, checkAuthorizeRequest, denialRedirect, issueCode, OAuth2Error, type AuthorizeRequest,
} from '../services/oauth2.js';
import { listChannels } from '../store/channels.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';
import { errorBox, page } from './page.js';
import { formField, sessionOrLogin } from './session-forms.js';

/** Mastodon's authorize page; toot asks for it with a trailing slash. */
const PATHS = ['/oauth/authorize', '/oauth/authorize/'];
const AUTHORIZE_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

function show(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.body = page(title, body);
}

/** An OAuth 2 request (client_id / response_type), as opposed to OAuth 1.0a's oauth_token. */
function isOAuth2(values: Record<string, unknown>): boolean {
  return values.oauth_token === undefined && (values.client_id !== undefined || values.response_type !== undefined);
}

const SCOPE_WORDS: Record<string, string> = {
  read: 'read your posts, connections, lists and notifications',
  write: 'post, edit and delete posts, like, share, upload media and change your profile',
  follow: 'connect to and disconnect from channels, block and mute',
  push: 'receive notifications',
  profile: 'see your profile',
};

function describeScopes(scopes: string[]): string {
  return scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_WORDS[s] ?? SCOPE_WORDS[s.split(':')[0]!] ?? s)}</li>`).join('');
}

function approvalForm(hub: Hub, req: AuthorizeRequest, session: SessionRow, action: string): string {
  const channels = listChannels(hub.db, session.account_id);
  const options = channels
    .map((c) => `<option value="${escapeHtml(c.channel_address)}"${c.channel_id === session.channel_id ? ' selected' : ''}>${escapeHtml(c.channel_name)} (${escapeHtml(c.channel_address)})</option>`)
    .join('');
  const hidden = AUTHORIZE_FIELDS.map((name) => {
    const value = name === 'scope' ? req.scopes.join(' ') : name === 'redirect_uri' ? req.redirectUri : name === 'client_id' ? req.app.client_id : name === 'response_type' ? 'code' : name === 'state' ? req.state : name === 'code_challenge' ? req.challenge : req.challengeMethod;
    return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  }).join('\n');
  const site = req.app.website ? ` (<a href="${escapeHtml(req.app.website)}" rel="noreferrer noopener">${escapeHtml(req.app.website)}</a>)` : '';
  return `<h1>Authorize application</h1>
<p><strong id="app-name">${escapeHtml(req.app.name)}</strong>${site} asks to use one of your channels. It will be able to:</p>
<ul>${describeScopes(req.scopes)}</ul>
<form method="post" action="${escapeHtml(action)}">
${hidden}
<input type="hidden" name="csrf" value="${escapeHtml(session.csrf)}">
<label for="channel">Channel</label>
<select id="channel" name="channel" style="width:100%;padding:.5rem;font-size:1rem">${options}</select>
<p class="hint">The app acts only as this channel. You can revoke its access at any time in <a href="/settings/oauth/">Settings → Apps</a>.</p>
<button type="submit" name="approve" value="1">Authorize</button>
<button type="submit" name="deny" value="1" style="background:#666">Deny</button>
</form>`;
}

/** What the page says when opened without an app's request (the desktop app's QR code leads here). */
function connectHelp(hub: Hub): string {
  const url = escapeHtml(hub.baseUrl);
  return `<h1>Connect an app</h1>
<p>To use your hub with a Mastodon app (Tusky, Ice Cubes, Fedilab, Elk, Phanpy, toot…), enter this address as the server in the app:</p>
<p><code id="server-address" style="font-size:1.2rem;user-select:all">${url}</code></p>
<p>The app brings you back to this page: log in, choose the channel it may use, and approve.</p>
<p class="hint">Apps for the microblog (Twitter/GNU social) or Hubzilla APIs use the same address.</p>`;
}

function failure(ctx: Context, err: OAuth2Error): void {
  show(ctx, err.status === 401 ? 400 : err.status, 'Authorize application', `<h1>Authorize application</h1>${errorBox(`${err.description} (${err.code})`)}`);
}

/**
 * OAuth 2's authorize step as Mastodon serves it: the logged-in owner picks the channel the app
 * may use and approves; the browser goes back to the app with a code, or the page shows the code
 * (redirect urn:ietf:wg:oauth:2.0:oob). OAuth 1.0a requests (oauth_token) pass on to its page.
 */
export function mountOAuth2Authorize(router: Router, hub: Hub): void {
  for (const path of PATHS) {
    router.get(path, (ctx: Context, next: Next) => {
      if (Object.keys(ctx.query).length === 0) return show(ctx, 200, 'Connect an app', connectHelp(hub));
      if (!isOAuth2(ctx.query)) return next();
      let req: AuthorizeRequest;
      try {
        req = checkAuthorizeRequest(hub.db, ctx.query as Record<string, string>);
      } catch (err) {
        if (err instanceof OAuth2Error) return failure(ctx, err);
        throw err;
      }
      const session = sessionOrLogin(ctx);
      if (!session) return;
      show(ctx, 200, 'Authorize application', approvalForm(hub, req, session, '/oauth/authorize'));
    });

    router.post(path, (ctx: Context, next: Next) => {
      const body = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
      if (!isOAuth2(body)) return next();
      try {
        assertSameOrigin(ctx);
      } catch (err) {
        if (err instanceof HttpError) return show(ctx, err.status, 'Authorize application', errorBox(err.message));
        throw err;
      }
      const session = currentSession(ctx);
      if (!session || formField(ctx, 'csrf') !== session.csrf) return show(ctx, 403, 'Authorize application', errorBox('Your session has expired; log in and try again.'));
      const query = Object.fromEntries(AUTHORIZE_FIELDS.map((f) => [f, formField(ctx, f)]));
      let req: AuthorizeRequest;
      try {
        req = checkAuthorizeRequest(hub.db, query);
      } catch (err) {
        if (err instanceof OAuth2Error) return failure(ctx, err);
        throw err;
      }
      ctx.set('Cache-Control', 'no-store');
      if (!formField(ctx, 'approve')) {
        const back = denialRedirect(req);
        if (back) return ctx.redirect(back);
        return show(ctx, 200, 'Access refused', '<h1>Access refused</h1><p>The application was not allowed to use your channel. You can close this window.</p>');
      }
      const channel = listChannels(hub.db, session.account_id).find((c) => c.channel_address === formField(ctx, 'channel'));
      if (!channel) return show(ctx, 400, 'Authorize application', errorBox('Choose one of your channels.'));
      const code = issueCode(hub.db, req, channel);
      const back = approvalRedirect(req, code);
      if (back) return ctx.redirect(back);
      show(
        ctx,
        200,
        'Application authorized',
        `<h1>Application authorized</h1><p>Copy this authorization code and paste it into the application:</p>
<p><code id="authorization_code" style="font-size:1.2rem;word-break:break-all">${escapeHtml(code)}</code></p>`,
      );
    });
  }
}
