import type { ApiRequest } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { getPConfig } from '../../../../store/config.js';
import { incomingOf } from '../../../../store/social-graph.js';
import { localChannelFacts } from '../../../../store/user-facts.js';
import { credentialAccount } from '../../../../serializers/mastodon/account.js';
import { parseFields } from '../../../../services/mastodon/accounts.js';
import { accountOf } from '../../common.js';

/** The caller's own account with its settings (source), as verify_credentials and update_credentials answer. */
export function credentialAccountOf(req: ApiRequest) {
  const ch = req.user().channel;
  const db = req.hub.db;
  const local = localChannelFacts(db, [ch.channel_hash]).get(ch.channel_hash);
  return credentialAccount(accountOf(req, ch.channel_hash), {
    note: local?.pdesc ?? '',
    fields: parseFields(getPConfig(db, ch.channel_id, 'mastodon', 'fields')),
    privacy: getPConfig(db, ch.channel_id, 'mastodon', 'privacy') ?? 'public',
    followRequests: incomingOf(db, ch.channel_id).length,
  });
}

/** GET /api/v1/accounts/verify_credentials. */
export const verifyCredentialsRoute: MastodonRoute = { path: 'accounts/verify_credentials', methods: ['GET'], auth: 'user', scope: ['read:accounts', 'profile'], handler: credentialAccountOf };
