import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { escapeHtml } from '../content/render.js';
import { resolveLogin, SESSION_COOKIE } from '../auth/identity.js';
import { verifyLoginPassword } from '../auth/passwords.js';
import { addressHost, countChannels, getChannel, getChannelByNick, listChannels, localAddress } from '../store/channels.js';
import { getXchansByHash } from '../store/xchans.js';
import { createSession, deleteSession, findSession, setSessionChannel } from '../store/sessions.js';
import { ChannelCreationError, createChannel } from '../services/channels.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { errorBox, page } from './page.js';

const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;

function field(ctx: Context, name: string): string {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  const v = body && typeof body === 'object' ? body[name] : undefined;
  return typeof v === 'string' ? v : '';
}

function wantsJson(ctx: Context): boolean {
  return Boolean(ctx.request.is('application/json')) || ctx.accepts('html', 'json') === 'json';
}

/** Where to go after logging in: only paths on this hub. */
function safeReturnPath(value: string): string {
  return /^\/(?!\/)[^\s\\]*$/.test(value) ? value : '/';
}

export function startSession(ctx: Context, hub: Hub, accountId: number, channelId: number) {
  const { token, session } = createSession(hub.db, accountId, channelId, SESSION_LIFETIME_MS);
  ctx.cookies.set(SESSION_COOKIE, token, { ...cookieFlags(ctx, hub), maxAge: SESSION_LIFETIME_MS, overwrite: true });
  return session;
}

/**
 * The session cookie's flags. Secure follows the base URL: an https hub is reached over https,
 * through a TLS-terminating proxy if need be, even when the proxy speaks plain http to the hub.
 */
function cookieFlags(ctx: Context, hub: Hub) {
  const secure = hub.baseUrl.startsWith('https:');
  // The cookies library refuses secure cookies on a connection it believes plain, unless told.
  if (secure) ctx.cookies.secure = true;
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
}

/** The current browser session, if any. */
export function currentSession(ctx: Context) {
  const token = ctx.cookies.get(SESSION_COOKIE);
  return token ? findSession(ctx.hub.db, token) : undefined;
}

function setupForm(error?: string, values: Record<string, string> = {}): string {
  const v = (k: string) => escapeHtml(values[k] ?? '');
  return page(
    'Set up Hearth',
    `<h1>Welcome to Hearth</h1>
<p>Create your account and your first channel. The password protects everything on this hub.</p>
${errorBox(error)}
<form method="post" action="/setup">
<label for="name">Your name</label><input id="name" name="name" value="${v('name')}" required autocomplete="name">
<label for="nick">Nickname</label><input id="nick" name="nick" value="${v('nick')}" required pattern="[a-z][a-z0-9_\\-]{1,31}" autocomplete="username">
<p class="hint">Lowercase letters, digits, - and _. Your address will be nick@this-hub.</p>
<label for="email">Email (optional)</label><input id="email" name="email" type="email" value="${v('email')}" autocomplete="email">
<label for="password">Password</label><input id="password" name="password" type="password" required minlength="6" autocomplete="new-password">
<button type="submit">Create my hub</button>
</form>`,
  );
}

function loginForm(error?: string, returnTo = '/'): string {
  return page(
    'Log in',
    `<h1>Log in to Hearth</h1>${errorBox(error)}
<form method="post" action="/login">
<input type="hidden" name="return" value="${escapeHtml(returnTo)}">
<label for="login">Nickname or email</label><input id="login" name="login" required autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Log in</button>
</form>`,
  );
}

export function mountAuthPages(router: Router, hub: Hub): void {
  const throttle = hub.throttle;

  router.get('/setup', (ctx) => {
    if (countChannels(hub.db) > 0) return ctx.redirect('/');
    ctx.type = 'html';
    ctx.body = setupForm();
  });

  router.post('/setup', async (ctx) => {
    assertSameOrigin(ctx);
    if (countChannels(hub.db) > 0) throw new HttpError(409, 'This hub is already set up; log in instead');
    const values = { nick: field(ctx, 'nick'), name: field(ctx, 'name'), email: field(ctx, 'email'), password: field(ctx, 'password') };
    try {
      const channel = await createChannel(hub.db, { baseUrl: hub.baseUrl }, values);
      const session = startSession(ctx, hub, channel.channel_account_id, channel.channel_id);
      if (wantsJson(ctx)) {
        ctx.body = { success: true, channel: channel.channel_address, csrf: session.csrf };
      } else ctx.redirect('/');
    } catch (err) {
      if (!(err instanceof ChannelCreationError)) throw err;
      if (wantsJson(ctx)) throw new HttpError(400, err.message);
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = setupForm(err.message, values);
    }
  });

  router.get('/login', (ctx) => {
    if (countChannels(hub.db) === 0) return ctx.redirect('/setup');
    ctx.type = 'html';
    ctx.body = loginForm(undefined, safeReturnPath(String(ctx.query.return ?? '/')));
  });

  router.post('/login', async (ctx) => {
    assertSameOrigin(ctx);
    throttle.check(ctx.ip);
    const login = field(ctx, 'login');
    const password = field(ctx, 'password');
    const returnTo = safeReturnPath(field(ctx, 'return') || '/');
    const found = login ? resolveLogin(hub.db, login) : undefined;
    const usable = found !== undefined && found.account.account_flags === 0;
    // Unknown names are checked against a dummy hash: the answer takes as long as a wrong password's.
    const ok = (await verifyLoginPassword(password, usable ? found.account.account_password : undefined)) && usable;
    if (!ok) {
      throttle.fail(ctx.ip);
      if (wantsJson(ctx)) throw new HttpError(401, 'Wrong nickname or password');
      ctx.status = 401;
      ctx.type = 'html';
      ctx.body = loginForm('Wrong nickname or password.', returnTo);
      return;
    }
    throttle.succeed(ctx.ip);
    const session = startSession(ctx, hub, found.account.account_id, found.channel.channel_id);
    if (wantsJson(ctx)) ctx.body = { success: true, channel: found.channel.channel_address, csrf: session.csrf };
    else ctx.redirect(returnTo);
  });

  router.post('/logout', (ctx) => {
    assertSameOrigin(ctx);
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (token) deleteSession(hub.db, token);
    ctx.cookies.set(SESSION_COOKIE, '', { ...cookieFlags(ctx, hub), maxAge: 0 });
    if (wantsJson(ctx)) ctx.body = { success: true };
    else ctx.redirect('/login');
  });

  /** What the UI needs to know about its session: who, which channels, and the CSRF token for API calls. */
  router.get('/session', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const session = currentSession(ctx);
    const setupNeeded = countChannels(hub.db) === 0;
    const channel = session && getChannel(hub.db, session.channel_id);
    // Channel addresses as other hubs know them (the xchan's), and what follows the @ in them.
    const host = addressHost(hub.baseUrl);
    if (!session || !channel) {
      ctx.body = { authenticated: false, setupNeeded, baseUrl: hub.baseUrl, addressHost: host };
      return;
    }
    const channels = listChannels(hub.db, session.account_id);
    const xchans = getXchansByHash(hub.db, channels.map((c) => c.channel_hash));
    const address = (c: { channel_hash: string; channel_address: string }) => xchans.get(c.channel_hash)?.xchan_addr || localAddress(hub.baseUrl, c.channel_address);
    ctx.body = {
      authenticated: true,
      setupNeeded,
      baseUrl: hub.baseUrl,
      addressHost: host,
      // The most one upload request may carry, so that the UI can say so before sending a file.
      uploadLimit: hub.limits.maxUploadBytes,
      csrf: session.csrf,
      channel: { id: channel.channel_id, nick: channel.channel_address, name: channel.channel_name, hash: channel.channel_hash, address: address(channel) },
      channels: channels.map((c) => ({ id: c.channel_id, nick: c.channel_address, name: c.channel_name, address: address(c) })),
    };
  });

  /** Switches the session to another channel of the same account. */
  router.post('/session/channel', (ctx) => {
    assertSameOrigin(ctx);
    const session = currentSession(ctx);
    if (!session || ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(401, 'Log in first');
    const nick = field(ctx, 'nick');
    const channel = getChannelByNick(hub.db, nick.toLowerCase());
    if (!channel || channel.channel_account_id !== session.account_id) throw new HttpError(404, `No channel ${nick} on this account`);
    setSessionChannel(hub.db, session.id, channel.channel_id);
    ctx.body = { success: true, channel: channel.channel_address };
  });
}
