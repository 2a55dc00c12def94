import { useCallback, useMemo, useState } from 'react';
import { useLiveEvents } from '../../live.tsx';
import { useChannel } from '../../session.tsx';
import type { useStream } from './useStream.ts';

/**
 * The stream kept live from the hub's stream: comments, edits, likes on the owner's posts and
 * deletions change the threads shown at once; others' new posts and shares wait behind a "new
 * posts" bar (with `newPosts`), so that nothing moves under the reader.
 */
export function useLiveThreads(stream: ReturnType<typeof useStream>, { newPosts }: { newPosts: boolean }) {
  const channel = useChannel();
  const [waiting, setWaiting] = useState<number[]>([]);
  const { refreshThreadOf, forget, showNewer } = stream;

  useLiveEvents((e) => {
    if (e.event === 'update') {
      const s = e.status;
      if (s.visibility === 'direct') return;
      if (s.in_reply_to_id) return void refreshThreadOf(Number(s.in_reply_to_id));
      // The owner's own posts and shares are put in place by what made them.
      if (newPosts && s.account.acct.toLowerCase() !== channel.nick.toLowerCase()) setWaiting((w) => (w.includes(Number(s.id)) ? w : [Number(s.id), ...w]));
    } else if (e.event === 'status.update') {
      void refreshThreadOf(Number(e.status.id));
    } else if (e.event === 'delete') {
      setWaiting((w) => w.filter((id) => id !== Number(e.id)));
      forget(Number(e.id));
    } else if (e.status) {
      // A like, share or mention of the owner's: the thread's counts.
      void refreshThreadOf(Number(e.status.id));
    }
  });

  const shown = useMemo(() => new Set(stream.threads.flatMap((t) => [t.top.id, ...(t.shares ?? []).map((s) => s.id)])), [stream.threads]);
  const unseen = waiting.filter((id) => !shown.has(id));

  const show = useCallback(async () => {
    await showNewer(unseen);
    setWaiting([]);
  }, [showNewer, unseen]);

  return { unseen: unseen.length, show };
}
