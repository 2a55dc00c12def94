import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub.js';
import { escapeHtml } from '../content/render.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { registerClient, type NewClientInput } from '../services/oauth.js';
import { deleteOAuthClient, listAccessTokens, listOAuthClients, revokeAccessToken, type OAuthClientRow } from '../store/oauth.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';
import { errorBox, page } from './page.js';
import { formField, sessionOrLogin } from './session-forms.js';

export const OAUTH_SETTINGS_PATH = '/settings/oauth/';

interface Notice {
  error?: string;
  created?: OAuthClientRow;
  values?: Partial<NewClientInput>;
}

const h = escapeHtml;

function csrfField(session: SessionRow): string {
  return `<input type="hidden" name="csrf" value="${h(session.csrf)}">`;
}

function appsTable(hub: Hub, session: SessionRow): string {
  const apps = listOAuthClients(hub.db, session.account_id);
  if (!apps.length) return '<p class="hint">No applications registered yet.</p>';
  const rows = apps
    .map(
      (a) => `<tr><td>${/^https?:\/\//i.test(a.icon) ? `<img src="${h(a.icon)}" alt="" width="24" height="24"> ` : ''}${h(a.name)}</td>
<td><code>${h(a.client_id)}</code><details><summary>secret</summary><code>${h(a.secret)}</code></details></td>
<td>${a.redirect_uri ? h(a.redirect_uri) : '<span class="hint">none (shows a code)</span>'}</td>
<td><form method="post" action="${OAUTH_SETTINGS_PATH}delete">${csrfField(session)}<input type="hidden" name="client_id" value="${h(a.client_id)}"><button type="submit">Delete</button></form></td></tr>`,
    )
    .join('\n');
  return `<table><thead><tr><th>Name</th><th>Consumer key</th><th>Redirect</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function tokensTable(hub: Hub, session: SessionRow): string {
  const tokens = listAccessTokens(hub.db, session.account_id);
  if (!tokens.length) return '<p class="hint">No application has access to your channels.</p>';
  const rows = tokens
    .map(
      (t) => `<tr><td>${h(t.client_name)}</td><td>${h(t.channel_address)}</td><td>${h(t.created)} UTC</td><td><code>${h(t.token.slice(0, 8))}…</code></td>
<td><form method="post" action="${OAUTH_SETTINGS_PATH}revoke">${csrfField(session)}<input type="hidden" name="token" value="${h(t.token)}"><button type="submit">Revoke</button></form></td></tr>`,
    )
    .join('\n');
  return `<table><thead><tr><th>Application</th><th>Channel</th><th>Authorized</th><th>Token</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function settingsPage(hub: Hub, session: SessionRow, notice: Notice = {}): string {
  const v = (k: keyof NewClientInput) => h(notice.values?.[k] ?? '');
  const created = notice.created
    ? `<p class="notice" role="status">Registered <strong>${h(notice.created.name)}</strong>. Consumer key <code>${h(notice.created.client_id)}</code>, consumer secret <code>${h(notice.created.secret)}</code>.</p>`
    : '';
  return page(
    'Connected applications',
    `<h1>Connected applications</h1>
<p>Applications that use the microblog API (<code>${h(hub.baseUrl)}/api/</code>) with OAuth 1.0a.</p>
${errorBox(notice.error)}${created}
<h2>Registered applications</h2>
${appsTable(hub, session)}
<h2>Add an application</h2>
<form method="post" action="${OAUTH_SETTINGS_PATH}add">${csrfField(session)}
<label for="name">Name</label><input id="name" name="name" value="${v('name')}" required maxlength="191">
<label for="key">Consumer key</label><input id="key" name="key" value="${v('key')}" maxlength="191">
<label for="secret">Consumer secret</label><input id="secret" name="secret" value="${v('secret')}" maxlength="191" autocomplete="off">
<p class="hint">Leave key and secret empty to have them generated.</p>
<label for="redirect">Redirect (callback URL)</label><input id="redirect" name="redirect" value="${v('redirect')}" placeholder="empty: the app shows a code to enter">
<label for="icon">Icon URL</label><input id="icon" name="icon" value="${v('icon')}">
<button type="submit">Add application</button>
</form>
<h2>Access granted</h2>
${tokensTable(hub, session)}`,
  );
}

/** A posted settings form from the owner's own page: same origin and the session's CSRF token. */
function postedSession(ctx: Context): SessionRow {
  assertSameOrigin(ctx);
  const session = currentSession(ctx);
  if (!session) throw new HttpError(401, 'Log in first');
  if (formField(ctx, 'csrf') !== session.csrf) throw new HttpError(403, 'The form has expired; reload the page and try again');
  return session;
}

function render(ctx: Context, hub: Hub, session: SessionRow, status = 200, notice: Notice = {}): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.body = settingsPage(hub, session, notice);
}

/** /settings/oauth/: the owner registers and deletes client apps and revokes their access tokens. */
export function mountOAuthSettings(router: Router, hub: Hub): void {
  const show = (ctx: Context) => {
    const session = sessionOrLogin(ctx);
    if (session) render(ctx, hub, session);
  };
  router.get('/settings/oauth', show);
  router.get(OAUTH_SETTINGS_PATH, show);

  router.post(`${OAUTH_SETTINGS_PATH}add`, (ctx) => {
    const session = postedSession(ctx);
    const values: NewClientInput = { name: formField(ctx, 'name'), key: formField(ctx, 'key'), secret: formField(ctx, 'secret'), redirect: formField(ctx, 'redirect'), icon: formField(ctx, 'icon') };
    try {
      const created = registerClient(hub, session.account_id, values);
      render(ctx, hub, session, 200, { created });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      render(ctx, hub, session, err.status, { error: err.message, values });
    }
  });

  router.post(`${OAUTH_SETTINGS_PATH}delete`, (ctx) => {
    const session = postedSession(ctx);
    if (!deleteOAuthClient(hub.db, session.account_id, formField(ctx, 'client_id'))) return render(ctx, hub, session, 404, { error: 'No such application' });
    ctx.redirect(OAUTH_SETTINGS_PATH);
  });

  router.post(`${OAUTH_SETTINGS_PATH}revoke`, (ctx) => {
    const session = postedSession(ctx);
    if (!revokeAccessToken(hub.db, session.account_id, formField(ctx, 'token'))) return render(ctx, hub, session, 404, { error: 'No such access token' });
    ctx.redirect(OAUTH_SETTINGS_PATH);
  });
}
