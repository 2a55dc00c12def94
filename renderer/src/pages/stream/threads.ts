import type { Status, User } from '../../api/types.ts';

export interface Thread {
  top: Status;
  comments: Status[];
  /** Set when the comments of this thread could not be loaded. */
  commentsError?: string;
  /** The shares (retweets) of the top post that brought the thread into this list, newest first. */
  shares?: Status[];
}

export const isComment = (s: Status) => s.in_reply_to_status_id !== null && s.in_reply_to_status_id !== undefined && s.in_reply_to_status_id !== 0;

export function threadId(s: Status): number {
  return s.statusnet_conversation_id || (isComment(s) ? s.in_reply_to_status_id! : s.id);
}

/**
 * The thread a status belongs to in a list: a share stands for the post it shares, so that a share
 * and its original (or two shares of one post) make one thread.
 */
export const threadKey = (s: Status): number => threadId(s.retweeted_status ?? s);

/** A list's thread as its page names it: the top post when the page holds it, and the shares that brought it. */
export interface ThreadEntry {
  key: number;
  top?: Status;
  shares: Status[];
}

/** The threads of a page of statuses, each once, in the order they first come; shares are folded into the post they share. */
export function entriesOf(page: Status[]): ThreadEntry[] {
  const entries = new Map<number, ThreadEntry>();
  for (const s of page) {
    const key = threadKey(s);
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = { key, shares: [] }));
    const post = s.retweeted_status ?? s;
    if (s.retweeted_status && !entry.shares.some((x) => x.id === s.id)) entry.shares.push(s);
    if (!entry.top && post.id === key) entry.top = post;
  }
  return [...entries.values()];
}

/** Shares of one post from both lists, each once, newest first. */
export function mergeShares(a: Status[] = [], b: Status[] = []): Status[] {
  const byId = new Map([...a, ...b].map((s) => [s.id, s]));
  return [...byId.values()].sort((x, y) => y.id - x.id);
}

/** A thread from its top post and the conversation listing (which may or may not hold the top). */
export function toThread(top: Status, conversation: Status[]): Thread {
  const comments = conversation.filter((s) => s.id !== top.id).sort((a, b) => a.id - b.id);
  return { top, comments };
}

/** Whether the thread's comments have to be fetched (the count is missing or non-zero). */
export const needsComments = (s: Status) => s.friendica_comments === undefined || s.friendica_comments > 0;

export const authorOf = (s: Status): User => s.friendica_author ?? s.user;

export function isMine(s: Status, nick: string): boolean {
  return authorOf(s).screen_name?.toLowerCase() === nick.toLowerCase();
}

export function reactedBy(users: User[] | undefined, nick: string): boolean {
  return (users ?? []).some((u) => u.screen_name?.toLowerCase() === nick.toLowerCase());
}
