import type { Db } from '../db/open.js';
import { getOwnerAccount, insertAccount, setAccountPassword } from '../store/accounts.js';
import { deleteOtherAccountSessions } from '../store/sessions.js';
import { revokeAccountOAuthTokens } from '../store/oauth.js';
import { generateChannelKeys, insertChannel, nickProblem } from '../store/channels.js';
import type { ChannelRow } from '../store/rows.js';
import { hashPassword, passwordProblem, verifyPassword } from '../auth/passwords.js';
import { setPConfig } from '../store/config.js';
import { DEFAULT_CHANNEL_CONFIG } from './permissions.js';

export class ChannelCreationError extends Error {}

export interface ChannelRequest {
  nick: string;
  name?: string;
  password?: string;
  email?: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/**
 * Creates a channel. The first one also creates the owner account with this password (and email);
 * later ones must present the account's password, which every channel of the install shares.
 */
export async function createChannel(db: Db, site: { baseUrl: string }, req: ChannelRequest): Promise<ChannelRow> {
  const nick = (req.nick ?? '').trim().toLowerCase();
  const name = (req.name ?? '').trim() || nick;
  const problem = nickProblem(db, nick);
  if (problem) throw new ChannelCreationError(problem);
  if (name.length > 190) throw new ChannelCreationError('the display name is too long');
  const pwProblem = passwordProblem(req.password);
  if (pwProblem) throw new ChannelCreationError(pwProblem);
  const email = (req.email ?? '').trim();
  if (email && !EMAIL_PATTERN.test(email)) throw new ChannelCreationError(`not an email address: ${email}`);

  const existing = getOwnerAccount(db);
  if (existing && !(await verifyPassword(req.password!, existing.account_password))) {
    throw new ChannelCreationError('wrong password: a new channel needs the password of the existing account');
  }
  const passwordHash = existing ? undefined : await hashPassword(req.password!);
  const keys = await generateChannelKeys();
  return db.transaction(() => {
    // Checked again inside the transaction: another request may have taken the nick meanwhile.
    const again = nickProblem(db, nick);
    if (again) throw new ChannelCreationError(again);
    const owner = getOwnerAccount(db);
    const accountId = owner ? owner.account_id : insertAccount(db, email, passwordHash!);
    const channel = insertChannel(db, { accountId, nick, name, baseUrl: site.baseUrl, keys });
    for (const c of DEFAULT_CHANNEL_CONFIG) setPConfig(db, channel.channel_id, c.cat, c.k, c.v);
    return channel;
  })();
}

/**
 * Another channel on an account whose owner is already logged in (the UI's "New channel"): no
 * password asked again, the session proves the account.
 */
export async function addChannelToAccount(db: Db, site: { baseUrl: string }, accountId: number, req: { nick: string; name?: string }): Promise<ChannelRow> {
  const nick = (req.nick ?? '').trim().toLowerCase();
  const name = (req.name ?? '').trim() || nick;
  const problem = nickProblem(db, nick);
  if (problem) throw new ChannelCreationError(problem);
  if (name.length > 190) throw new ChannelCreationError('the display name is too long');
  const keys = await generateChannelKeys();
  return db.transaction(() => {
    const again = nickProblem(db, nick);
    if (again) throw new ChannelCreationError(again);
    const channel = insertChannel(db, { accountId, nick, name, baseUrl: site.baseUrl, keys });
    for (const c of DEFAULT_CHANNEL_CONFIG) setPConfig(db, channel.channel_id, c.cat, c.k, c.v);
    return channel;
  })();
}

export interface PasswordChange {
  /** The browser session that made the change stays logged in; every other session of the account ends. */
  keepSessionId?: string;
  /** Also revoke the OAuth tokens apps hold for the account's channels. */
  revokeOAuth?: boolean;
}

/**
 * Sets the account's password and ends its other browser sessions (whoever knew the old password
 * may have logged in with it), and with `revokeOAuth` the apps' tokens too, in one transaction.
 * Basic credentials the hub remembers stop working with the old password hash.
 */
export async function changePassword(db: Db, accountId: number, password: string, change: PasswordChange = {}): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
  const problem = passwordProblem(password);
  if (problem) throw new ChannelCreationError(problem);
  const hash = await hashPassword(password);
  return db.transaction(() => {
    setAccountPassword(db, accountId, hash);
    const sessionsEnded = deleteOtherAccountSessions(db, accountId, change.keepSessionId);
    const tokensRevoked = change.revokeOAuth ? revokeAccountOAuthTokens(db, accountId) : 0;
    return { sessionsEnded, tokensRevoked };
  })();
}
