import type { CommentPolicy } from '../../api/socialSettings.ts';

/**
 * The one permission that changes something in Hearth, in words: whether a connection may comment
 * on and react to the channel's posts (post_comments), which counts while the channel keeps its
 * comments to connections. Hubzilla's others (web pages, wikis, chat, wall posts, delegation…)
 * name features Hearth does not have; they keep the values the hub gave them, out of sight.
 */
export const COMMENT_PERMISSION = 'post_comments';
export const COMMENT_LABEL = 'Comment on and like your posts';

/** What the channel's comment setting means for one connection, under the checkbox. */
export function commentHint(policy: CommentPolicy, name: string): string {
  if (policy === 'anyone') return `Anyone who can see your posts may comment on and like them, ${name} too. To decide it for each connection, choose “Only my connections” in Settings → Followers and comments.`;
  if (policy === 'nobody') return 'Nobody may comment on or like your posts: you chose so in Settings → Followers and comments.';
  return 'Only the connections you allow here may comment on and like your posts.';
}
