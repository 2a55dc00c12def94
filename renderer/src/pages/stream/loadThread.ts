import { conversation, showStatus } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { needsComments, threadId, toThread, type Thread } from './threads.ts';

/** A thread from the hub: its top post (unless already known) and the comments on it. */
export async function loadThread(topId: number, knownTop?: Status): Promise<Thread> {
  if (knownTop && !needsComments(knownTop)) return { top: knownTop, comments: [] };
  const [top, replies] = await Promise.all([knownTop ?? showStatus(topId), conversation(topId)]);
  return toThread(top, replies);
}

/** The thread containing any post or comment `id`. */
export async function loadThreadOf(id: number): Promise<Thread> {
  const item = await showStatus(id);
  const topId = threadId(item);
  const [top, replies] = await Promise.all([topId === item.id ? item : showStatus(topId), conversation(topId)]);
  return toThread(top, replies);
}
