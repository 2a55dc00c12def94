import type { GroupRow } from '../../store/rows.js';
import type { CompatUser } from './user.js';

/** A Twitter list: a privacy group of the channel. */
export interface CompatList {
  name: string;
  id: number;
  id_str: string;
  user: CompatUser;
  mode: 'public' | 'private';
  slug: string;
  full_name: string;
  description: string;
  uri: string;
  member_count: number;
  subscriber_count: number;
  following: boolean;
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'list';
}

export function compatList(group: GroupRow, owner: CompatUser, memberCount: number): CompatList {
  const slug = slugOf(group.gname);
  return {
    name: group.gname,
    id: group.id,
    id_str: String(group.id),
    user: owner,
    mode: group.visible ? 'public' : 'private',
    slug,
    full_name: `@${owner.screen_name}/${slug}`,
    description: '',
    uri: `/${owner.screen_name}/lists/${slug}`,
    member_count: memberCount,
    subscriber_count: 0,
    following: true,
  };
}
