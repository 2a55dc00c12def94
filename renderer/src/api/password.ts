import { postJson } from './http.ts';

/** The Settings page's password change (the hub's /settings/password, for the logged-in owner). */
export interface PasswordChanged {
  success: boolean;
  sessions_ended: number;
  tokens_revoked: number;
}

export function changePassword(current: string, password: string, confirm: string, revokeOAuth: boolean): Promise<PasswordChanged> {
  return postJson('/settings/password', { current, password, confirm, revoke_oauth: revokeOAuth });
}
