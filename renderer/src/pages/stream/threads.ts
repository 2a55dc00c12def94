import type { Status, User } from '../../api/types.ts';

export interface Thread {
  top: Status;
  comments: Status[];
  /** Set when the comments of this thread could not be loaded. */
  commentsError?: string;
}

export const isComment = (s: Status) => s.in_reply_to_status_id !== null && s.in_reply_to_status_id !== undefined && s.in_reply_to_status_id !== 0;

export function threadId(s: Status): number {
  return s.statusnet_conversation_id || (isComment(s) ? s.in_reply_to_status_id! : s.id);
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
