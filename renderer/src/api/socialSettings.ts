import { COMPAT, get, post } from './http.ts';

/** Who may comment on (and like) the channel's posts, among those who may see them. */
export type CommentPolicy = 'anyone' | 'connections' | 'nobody';

export interface SocialSettings {
  /** Follows wait for the channel's approval (Mastodon's "locked"). */
  protected: boolean;
  comment_policy: CommentPolicy;
}

/** The channel's settings as the microblog API's account/settings reports them. */
export function socialSettings(): Promise<SocialSettings> {
  return get<SocialSettings>(`${COMPAT}account/settings`);
}

export function saveSocialSettings(s: SocialSettings): Promise<SocialSettings> {
  return post<SocialSettings>(`${COMPAT}account/settings`, { protected: s.protected, comment_policy: s.comment_policy });
}
