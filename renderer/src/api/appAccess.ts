import { get, post } from './http.ts';

/** The owner's apps page: registered OAuth 1.0a apps, and the access apps hold (every kind of token). */

export interface RegisteredApp {
  client_id: string;
  secret: string;
  name: string;
  redirect_uri: string;
  icon: string;
  created: string;
}

export interface AccessGrant {
  kind: string;
  id: string;
  app: string;
  website: string;
  /** Empty for an app-only token (OAuth 2 client credentials): it acts for no channel. */
  channel: string;
  created: string;
  scopes: string;
}

const BASE = '/settings/oauth/';

export function loadAppAccess(): Promise<{ apps: RegisteredApp[]; grants: AccessGrant[] }> {
  return get(`${BASE}access`);
}

export interface NewApp {
  name: string;
  key: string;
  secret: string;
  redirect: string;
  icon: string;
}

export async function registerApp(app: NewApp): Promise<RegisteredApp> {
  return (await post<{ app: RegisteredApp }>(`${BASE}apps`, { ...app })).app;
}

export function deleteApp(clientId: string): Promise<unknown> {
  return post(`${BASE}apps/delete`, { client_id: clientId });
}

export function revokeGrant(grant: AccessGrant): Promise<unknown> {
  return post(`${BASE}grants/revoke`, { kind: grant.kind, id: grant.id });
}

/** What a kind of token is called on the page. */
export function kindLabel(kind: string): string {
  if (kind === 'oauth1') return 'Microblog API (OAuth 1.0a)';
  if (kind === 'oauth2') return 'Mastodon API (OAuth 2)';
  return kind;
}
