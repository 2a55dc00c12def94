import { useCallback, useSyncExternalStore } from 'react';
import { useChannel } from '../session.tsx';
import type { PostFormat } from './preview.ts';

/** The formats a person writes posts, comments and messages in, as the select names them. */
export const FORMATS: { value: PostFormat; label: string }[] = [
  { value: 'text/bbcode', label: 'BBCode' },
  { value: 'text/markdown', label: 'Markdown' },
  { value: 'text/plain', label: 'Plain text' },
];

const isFormat = (v: unknown): v is PostFormat => FORMATS.some((f) => f.value === v);

const keyOf = (nick: string) => `hearth:writing-format:${nick}`;

const listeners = new Set<() => void>();
/** Choices this page could not store (storage refused, as in some private windows). */
const unstored = new Map<string, PostFormat>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another window of the UI chose a format.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function read(nick: string): PostFormat {
  const kept = unstored.get(nick);
  if (kept) return kept;
  try {
    const saved = localStorage.getItem(keyOf(nick));
    return isFormat(saved) ? saved : 'text/bbcode';
  } catch {
    return 'text/bbcode';
  }
}

/**
 * The format the channel writes in, remembered in this browser: what was chosen last for a post,
 * a comment or a message is where the next one starts. BBCode until something else is chosen.
 */
export function useWritingFormat(): [PostFormat, (format: PostFormat) => void] {
  const { nick } = useChannel();
  const format = useSyncExternalStore(subscribe, () => read(nick));
  const choose = useCallback(
    (next: PostFormat) => {
      try {
        localStorage.setItem(keyOf(nick), next);
      } catch {
        unstored.set(nick, next);
      }
      for (const listener of listeners) listener();
    },
    [nick],
  );
  return [format, choose];
}
