import { ApiError, COMPAT, get, post } from './http.ts';
import type { User } from './types.ts';

export function verifyCredentials(): Promise<User> {
  return get<User>(`${COMPAT}account/verify_credentials`, { skip_status: true });
}

/** A channel by its nick (screen_name), or undefined when there is none. */
export async function userNamed(nick: string): Promise<User | undefined> {
  try {
    return await get<User>(`${COMPAT}users/show`, { screen_name: nick });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

export function updateProfile(name: string, description: string): Promise<User> {
  return post<User>(`${COMPAT}account/update_profile`, { name, description });
}
