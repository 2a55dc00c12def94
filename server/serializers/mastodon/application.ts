import type { OAuth2AppRow } from '../../store/oauth2.js';

/** Mastodon's Application entity; the credentials only in the answer to its registration. */
export function mastodonApplication(app: OAuth2AppRow, opts: { credentials: boolean; vapidKey: string }) {
  const uris = app.redirect_uris.split('\n').filter(Boolean);
  return {
    id: app.client_id.slice(0, 12),
    name: app.name,
    website: app.website || null,
    scopes: app.scopes.split(' '),
    redirect_uri: uris.join('\n'),
    redirect_uris: uris,
    vapid_key: opts.vapidKey,
    ...(opts.credentials ? { client_id: app.client_id, client_secret: app.client_secret, client_secret_expires_at: 0 } : {}),
  };
}
