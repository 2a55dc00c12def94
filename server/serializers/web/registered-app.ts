import type { OAuthClientRow } from '../../store/oauth.js';

/** An app registered for the microblog API's OAuth 1.0a, as the owner's settings page shows it (with its secret). */
export interface RegisteredApp {
  client_id: string;
  secret: string;
  name: string;
  redirect_uri: string;
  icon: string;
  created: string;
}

export function registeredApp(row: OAuthClientRow): RegisteredApp {
  return { client_id: row.client_id, secret: row.secret, name: row.name, redirect_uri: row.redirect_uri, icon: row.icon, created: row.created };
}
