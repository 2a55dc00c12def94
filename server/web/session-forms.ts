import type { Context } from 'koa';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';

/** A text field of a posted form; '' when absent. */
export function formField(ctx: Context, name: string): string {
  const body = (ctx.request as { body?: unknown }).body;
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : '';
}

/** The owner's session, or a redirect to the login page that comes back here. */
export function sessionOrLogin(ctx: Context): SessionRow | undefined {
  const session = currentSession(ctx);
  if (!session) ctx.redirect(`/login?return=${encodeURIComponent(ctx.url)}`);
  return session;
}
