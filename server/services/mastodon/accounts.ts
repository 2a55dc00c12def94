import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { mastodonChannelConfig } from '../../store/mastodon.js';
import { mastodonAccount, type AccountExtras, type MastodonAccount } from '../../serializers/mastodon/account.js';
import { loadUserFacts } from '../compat/users.js';
import type { UserFacts } from '../../serializers/compat/user.js';

/** The profile fields a channel set through the Mastodon API (name/value pairs). */
export function parseFields(raw: string | undefined): { name: string; value: string }[] {
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? v.filter((f): f is { name: string; value: string } => typeof f?.name === 'string' && typeof f?.value === 'string') : [];
  } catch {
    return [];
  }
}

/** Mastodon accounts for these identities, by xchan hash; unknown hashes are left out. */
export function loadAccounts(hub: Hub, viewer: ChannelRow | undefined, hashes: Iterable<string>): Map<string, MastodonAccount> {
  return accountsFromFacts(hub, loadUserFacts(hub, viewer, hashes));
}

export function accountsFromFacts(hub: Hub, facts: Map<string, UserFacts>): Map<string, MastodonAccount> {
  const config = mastodonChannelConfig(hub.db, [...facts.keys()]);
  const out = new Map<string, MastodonAccount>();
  for (const [hash, f] of facts) {
    const c = config.get(hash) ?? {};
    const local = f.local;
    const extras: AccountExtras = { local, header: c.header, fields: parseFields(c.fields), bot: c.bot === '1' };
    out.set(hash, mastodonAccount(f, extras, hub.baseUrl));
  }
  return out;
}

export function loadAccount(hub: Hub, viewer: ChannelRow | undefined, hash: string): MastodonAccount | undefined {
  return loadAccounts(hub, viewer, [hash]).get(hash);
}
