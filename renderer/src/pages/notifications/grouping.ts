import type { Notification } from '../../api/types.ts';

/** Notifications shown as one entry: reactions of several people to the same post, or a single notification. */
export interface NotificationGroup {
  key: string;
  /** In the order given (unseen first, newest first): the first one is the entry's face. */
  members: Notification[];
}

const LIKE_KIND = 1024;
const VERBS: Record<string, { one: string; many: string }> = {
  'http://activitystrea.ms/schema/1.0/like': { one: 'likes', many: 'like' },
  'http://purl.org/zot/activity/dislike': { one: 'dislikes', many: 'dislike' },
  'http://activitystrea.ms/schema/1.0/share': { one: 'shared', many: 'shared' },
};

/** Likes, dislikes and shares of the same post group together; anything else stands alone. */
function groupKey(n: Notification): string {
  return n.type === LIKE_KIND && n.post_id && VERBS[n.verb ?? ''] ? `${n.verb} ${n.post_id}` : `one ${n.id}`;
}

/** Groups repeats ("Bob and 3 others like your post"); each group stands where its first member was. */
export function groupNotifications(items: Notification[]): NotificationGroup[] {
  const groups = new Map<string, NotificationGroup>();
  for (const n of items) {
    const key = groupKey(n);
    const group = groups.get(key);
    if (group) group.members.push(n);
    else groups.set(key, { key, members: [n] });
  }
  return [...groups.values()];
}

/** The text of one notification, the name of who did it written out. */
export function messageOf(n: Notification): string {
  const text = n.msg_plain || n.msg || '';
  return text.replace('{0}', n.name) || n.name;
}

/** Who is behind a group's notifications, each once (by profile URL), in order. */
export function actorsOf(group: NotificationGroup): Notification[] {
  const seen = new Set<string>();
  return group.members.filter((n) => {
    const who = n.url || n.name;
    if (seen.has(who)) return false;
    seen.add(who);
    return true;
  });
}

/** "Bob likes your post", "Bob and Carol like your post", "Bob and 3 others like your post". */
export function groupText(group: NotificationGroup): string {
  const first = group.members[0]!;
  const actors = actorsOf(group);
  const verb = VERBS[first.verb ?? ''];
  if (actors.length === 1 || !verb) return messageOf(first);
  const who = actors.length === 2 ? `${actors[0]!.name} and ${actors[1]!.name}` : `${actors[0]!.name} and ${actors.length - 1} others`;
  return `${who} ${verb.many} your post`;
}
