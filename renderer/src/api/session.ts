import { ApiError, errorMessage } from './http.ts';
import type { Session } from './types.ts';

/** The hub's own web endpoints (not API): /session, /login, /logout, /setup, /session/channel. */
async function web<T>(method: 'GET' | 'POST', path: string, json?: unknown, csrf?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...(json ? { 'Content-Type': 'application/json' } : {}), ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
  } catch {
    throw new ApiError('Hearth could not be reached. Is the hub still running?', 0);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  if (!res.ok) {
    const message = body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : '';
    // Here a 401 means wrong credentials, not a lost session.
    throw new ApiError(res.status === 401 && message ? message : errorMessage(res.status, body), res.status);
  }
  return body as T;
}

export const getSession = () => web<Session>('GET', '/session');

export const login = (login: string, password: string) => web<{ success: boolean; csrf: string }>('POST', '/login', { login, password });

export const logout = () => web<{ success: boolean }>('POST', '/logout', {});

export interface SetupForm {
  name: string;
  nick: string;
  email: string;
  password: string;
}

export const setup = (form: SetupForm) => web<{ success: boolean; csrf: string }>('POST', '/setup', form);

export const switchChannel = (nick: string, csrf: string) => web<{ success: boolean }>('POST', '/session/channel', { nick }, csrf);

/** Adds a channel to the logged-in account; the session switches to it. */
export const createChannel = (nick: string, name: string, csrf: string) => web<{ success: boolean; channel: string; name: string }>('POST', '/session/channels', { nick, name }, csrf);
