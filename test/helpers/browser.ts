import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { PASSWORD } from './hub.js';
import { hiddenField } from './web-session.js';

export interface PlainResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One HTTP(S) request, trusting `ca` for https (fetch cannot be given a CA here). */
export function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {}): Promise<PlainResponse> {
  const u = new URL(url);
  const doRequest = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = doRequest(u, { method: opts.method ?? 'GET', headers: opts.headers, ca: opts.ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/**
 * The owner in a browser, at the hub's public base URL (through the TLS proxy for an https hub):
 * logs in, registers apps on the apps page and approves OAuth requests. Posts carry the page's
 * Origin, as browsers send it.
 */
export class Browser {
  cookie = '';
  /** The Set-Cookie header of the login answer. */
  loginCookie = '';

  constructor(
    readonly base: string,
    readonly ca?: string,
  ) {}

  private url(pathOrUrl: string): string {
    return pathOrUrl.startsWith('http') ? pathOrUrl : this.base + pathOrUrl;
  }

  get(pathOrUrl: string): Promise<PlainResponse> {
    return send(this.url(pathOrUrl), { headers: { cookie: this.cookie }, ca: this.ca });
  }

  post(pathOrUrl: string, fields: Record<string, string>): Promise<PlainResponse> {
    return send(this.url(pathOrUrl), {
      method: 'POST',
      headers: { cookie: this.cookie, origin: new URL(this.base).origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      ca: this.ca,
    });
  }

  async login(nick: string): Promise<void> {
    const res = await this.post('/login', { login: nick, password: PASSWORD, return: '/' });
    assert.equal(res.status, 302, `login: ${res.status} ${res.text.slice(0, 200)}`);
    this.loginCookie = String(res.headers['set-cookie']?.[0] ?? '');
    this.cookie = this.loginCookie.split(';')[0]!;
  }

  /** Registers an app on the apps page (/settings/oauth/), as its form does: with the session's CSRF token. */
  async registerApp(name: string, redirect = ''): Promise<{ key: string; secret: string }> {
    const session = await this.get('/session');
    assert.equal(session.status, 200, session.text.slice(0, 200));
    const { csrf } = JSON.parse(session.text) as { csrf: string };
    const res = await send(this.url('/settings/oauth/apps'), {
      method: 'POST',
      headers: { cookie: this.cookie, origin: new URL(this.base).origin, accept: 'application/json', 'x-csrf-token': csrf, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name, key: '', secret: '', redirect, icon: '' }).toString(),
      ca: this.ca,
    });
    assert.equal(res.status, 201, res.text.slice(0, 300));
    const { app } = JSON.parse(res.text) as { app: { client_id: string; secret: string } };
    return { key: app.client_id, secret: app.secret };
  }

  /**
   * Opens the authorization URL a client built and approves: answers the callback redirect, or
   * the verifier (PIN) the page shows to apps without a callback.
   */
  async approve(authUrl: string): Promise<{ redirect: string } | { verifier: string }> {
    assert.ok(authUrl.startsWith(`${this.base}/`), `the client sends the owner to the hub: ${authUrl}`);
    const page = await this.get(authUrl);
    assert.equal(page.status, 200, page.text.slice(0, 300));
    const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1];
    assert.ok(action, 'an approval form');
    const res = await this.post(action, { oauth_token: hiddenField(page.text, 'oauth_token'), csrf: hiddenField(page.text, 'csrf'), oauth_yes: 'Yes' });
    if (res.status === 302) return { redirect: String(res.headers.location) };
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const verifier = /<code id="oauth_verifier"[^>]*>([^<]+)<\/code>/.exec(res.text)?.[1];
    assert.ok(verifier, 'the page shows the verifier');
    return { verifier };
  }
}
