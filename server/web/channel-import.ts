import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { sourceAddressProblem } from '../services/channel-import/importer.js';
import { importRunner } from '../services/channel-import/runner.js';
import { currentSession } from './auth-pages.js';
import { formField } from './session-forms.js';

/** The owner's session, for the UI's calls (cookie and CSRF header). */
function ownerSession(ctx: Context) {
  assertSameOrigin(ctx);
  const session = currentSession(ctx);
  if (!session || ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(401, 'Log in first');
  return session;
}

/**
 * "Move a channel here" for the UI: POST /channel-import starts an import (from, user, password),
 * GET /channel-import tells how it goes (poll it), POST /channel-import/stop interrupts it (running
 * it again resumes). One import at a time; the owner's session only.
 */
export function mountChannelImport(router: Router, hub: Hub): void {
  router.get('/channel-import', (ctx) => {
    ownerSession(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = importRunner(hub).current();
  });

  router.post('/channel-import', (ctx) => {
    ownerSession(ctx);
    const from = formField(ctx, 'from').trim();
    const user = formField(ctx, 'user').trim();
    const password = formField(ctx, 'password');
    if (!from) throw new HttpError(400, 'The address of the hub the channel is on is missing');
    if (!user) throw new HttpError(400, 'The channel\'s nickname on that hub is missing');
    if (!password) throw new HttpError(400, 'The channel\'s password on that hub is missing');
    if (from.length > 2000 || user.length > 255 || password.length > 1000) throw new HttpError(400, 'That is too long to be an address, a nickname or a password');
    const problem = sourceAddressProblem(from);
    if (problem) throw new HttpError(400, `${problem[0]!.toUpperCase()}${problem.slice(1)}`);
    if (!importRunner(hub).start({ from, user, password })) throw new HttpError(409, 'A channel is being moved here already; wait until it is done');
    ctx.status = 202;
    ctx.body = importRunner(hub).current();
  });

  router.post('/channel-import/stop', async (ctx) => {
    ownerSession(ctx);
    await importRunner(hub).stop();
    ctx.body = importRunner(hub).current();
  });
}
