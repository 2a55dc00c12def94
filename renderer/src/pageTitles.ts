import { useEffect } from 'react';

/** Screen names for the window title and tab: "Photos · Hearth". */
const SCREENS: [RegExp, string][] = [
  [/^\/(stream|compose)?\/?$/, 'Stream'],
  [/^\/(item|display)\//, 'Conversation'],
  [/^\/photos/, 'Photos'],
  [/^\/groups/, 'Groups'],
  [/^\/notifications/, 'Notifications'],
  [/^\/(connections|follow|poco)/, 'Connections'],
  [/^\/settings\/oauth/, 'Apps · Settings'],
  [/^\/settings/, 'Settings'],
  [/^\/channels/, 'Channels'],
  [/^\/channel\//, 'Channel'],
  [/^\/search/, 'Search'],
  [/^\/(messages|mail)/, 'Messages'],
  [/^\/files/, 'Files'],
];

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The title of the screen at this path: its section, with the album or channel it shows. */
export function screenTitle(path: string): string | undefined {
  const album = /^\/photos\/album\/([^/]+)/.exec(path);
  if (album) return `${decoded(album[1]!) === '/' ? 'Unsorted' : decoded(album[1]!)} · Photos`;
  const tag = /^\/tags\/([^/]+)/.exec(path);
  if (tag) return `#${decoded(tag[1]!)}`;
  const channel = /^\/channel\/([^/]+)/.exec(path);
  if (channel) return decoded(channel[1]!);
  return SCREENS.find(([pattern]) => pattern.test(path))?.[1];
}

/** Sets the window title; null leaves it to a screen further in. */
export function useDocumentTitle(title: string | undefined | null): void {
  useEffect(() => {
    if (title !== null) document.title = title ? `${title} · Hearth` : 'Hearth';
  }, [title]);
}
