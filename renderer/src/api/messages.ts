import { COMPAT, get, post } from './http.ts';
import type { User } from './types.ts';

/** A direct message as the microblog API gives it (Twitter's shape with Friendica's additions). */
export interface DirectMessage {
  id: number;
  /** The message as HTML (asked for with getText=html). */
  text: string;
  title: string;
  created_at: string;
  sender_screen_name: string;
  recipient_screen_name: string;
  sender?: User;
  recipient?: User;
  friendica_seen: boolean;
  friendica_parent_uri: string;
}

/** Messages per request; a shorter page is the last one. */
export const MESSAGE_PAGE = 100;

/** A page of the messages sent and received, newest first, up to `maxId` (inclusive). */
export function recentMessages(maxId?: number): Promise<DirectMessage[]> {
  return get<DirectMessage[]>(`${COMPAT}direct_messages/all`, { count: MESSAGE_PAGE, max_id: maxId, getText: 'html' });
}

/** A page of the messages exchanged with one channel, newest first, up to `maxId` (inclusive). */
export function messagesWith(nick: string, maxId?: number): Promise<DirectMessage[]> {
  return get<DirectMessage[]>(`${COMPAT}direct_messages/all`, { screen_name: nick, count: MESSAGE_PAGE, max_id: maxId, getText: 'html' });
}

/** One message by its id (what a notification links to); undefined when it is gone. */
export async function messageById(id: number): Promise<DirectMessage | undefined> {
  const [newest] = await get<DirectMessage[]>(`${COMPAT}direct_messages/all`, { max_id: id, count: 1 });
  return newest?.id === id ? newest : undefined;
}

/** The received messages not read yet (of the newest hundred). */
export async function unreadMessages(): Promise<DirectMessage[]> {
  const inbox = await get<DirectMessage[]>(`${COMPAT}direct_messages`, { count: MESSAGE_PAGE, getUserObjects: false });
  return inbox.filter((m) => !m.friendica_seen);
}

/** Sends a message (BBCode unless `mimetype` says otherwise), answering `replyTo` when given. */
export function sendMessage(to: { nick: string; replyTo?: number }, text: string, mimetype?: string): Promise<DirectMessage> {
  return post<DirectMessage>(`${COMPAT}direct_messages/new`, to.replyTo ? { replyto: to.replyTo, text, mimetype } : { screen_name: to.nick, text, mimetype });
}

/** Deletes the channel's own copy of a message; the other person keeps theirs. */
export function deleteMessage(id: number): Promise<unknown> {
  return post(`${COMPAT}direct_messages/destroy`, { id });
}

export function markMessageRead(id: number): Promise<unknown> {
  return get(`${COMPAT}ext/direct_messages_setseen`, { id });
}

/** Whether the channel `nick` sent the message. */
export const isSentBy = (m: DirectMessage, nick: string) => m.sender_screen_name.toLowerCase() === nick.toLowerCase();

/** The other person of a message, seen from the channel `nick`. */
export function correspondentOf(m: DirectMessage, nick: string): { nick: string; user?: User } {
  return isSentBy(m, nick) ? { nick: m.recipient_screen_name, user: m.recipient } : { nick: m.sender_screen_name, user: m.sender };
}

export interface Conversation {
  nick: string;
  user?: User;
  last: DirectMessage;
  unread: number;
}

/** Messages grouped by the person they were exchanged with, the latest conversation first. */
export function conversationsOf(messages: DirectMessage[], nick: string): Conversation[] {
  const byPerson = new Map<string, Conversation>();
  for (const m of messages) {
    const other = correspondentOf(m, nick);
    const key = other.nick.toLowerCase();
    const conv = byPerson.get(key) ?? { nick: other.nick, user: other.user, last: m, unread: 0 };
    if (m.id > conv.last.id) conv.last = m;
    if (!m.friendica_seen && !isSentBy(m, nick)) conv.unread++;
    byPerson.set(key, conv);
  }
  return [...byPerson.values()].sort((a, b) => b.last.id - a.last.id);
}
