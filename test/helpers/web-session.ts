import assert from 'node:assert/strict';
import { PASSWORD, type TestHub } from './hub.js';

/** A logged-in browser: the session cookie, and the CSRF token the hub's pages put in their forms. */
export interface WebSession {
  cookie: string;
  get(path: string): Promise<Response>;
  /** Posts an urlencoded form (no redirects followed). */
  post(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
}

/** Logs in through the login form, as a browser would. */
export async function webLogin(t: TestHub, login: string, password = PASSWORD): Promise<WebSession> {
  const res = await fetch(`${t.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login, password, return: '/' }),
    redirect: 'manual',
  });
  assert.equal(res.status, 302, 'login redirects');
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  return {
    cookie,
    get: (path) => fetch(t.url + path, { headers: { cookie }, redirect: 'manual' }),
    post: (path, fields, headers = {}) =>
      fetch(t.url + path, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields), redirect: 'manual' }),
  };
}

/** The value of a hidden form field in a page. */
export function hiddenField(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  assert.ok(m, `page has a ${name} field`);
  return m[1]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
