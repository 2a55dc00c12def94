import type Router from '@koa/router';
import type { Hub } from '../hub-context.js';
import { escapeHtml } from '../content/render.js';
import { SUPPORTED_SCOPES } from '../services/oauth2.js';

/**
 * Discovery documents: the OAuth 2 server's metadata (RFC 8414), from which web clients learn that
 * PKCE is supported and where to log in, and host-meta (RFC 6415), naming the WebFinger template.
 */
export function mountDiscovery(router: Router, hub: Hub): void {
  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    const base = hub.baseUrl;
    ctx.body = {
      // The issuer is the site's root URL, with its slash, as Mastodon has it.
      issuer: `${base}/`,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      app_registration_endpoint: `${base}/api/v1/apps`,
      scopes_supported: SUPPORTED_SCOPES,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'password', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      // 'none': a public client exchanges its code with the PKCE verifier alone.
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    };
  });

  const webfinger = () => `${hub.baseUrl}/.well-known/webfinger?resource={uri}`;
  router.get('/.well-known/host-meta', (ctx) => {
    ctx.type = 'application/xrd+xml; charset=utf-8';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>
<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
  <Link rel="lrdd" template="${escapeHtml(webfinger())}"/>
</XRD>
`;
  });
  router.get('/.well-known/host-meta.json', (ctx) => {
    ctx.body = { links: [{ rel: 'lrdd', template: webfinger() }] };
  });
}
