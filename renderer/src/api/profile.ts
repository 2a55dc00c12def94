import { COMPAT, get, post } from './http.ts';
import type { User } from './types.ts';

export function verifyCredentials(): Promise<User> {
  return get<User>(`${COMPAT}account/verify_credentials`, { skip_status: true });
}

export function updateProfile(name: string, description: string): Promise<User> {
  return post<User>(`${COMPAT}account/update_profile`, { name, description });
}
