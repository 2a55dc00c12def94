import { phpUrlencode } from '../../util/urlencode.js';

/** Album names longer than this are shortened in `shorttext`, keeping both ends, as Hubzilla does. */
const SHORT_TEXT_MAX = 28;

/** The name cut to its first and last 14 characters around '...' when it has 28 or more. */
function shortText(name: string): string {
  const chars = [...name];
  if (chars.length < SHORT_TEXT_MAX) return name;
  const half = SHORT_TEXT_MAX / 2;
  return `${chars.slice(0, half).join('')}...${chars.slice(-half).join('')}`;
}

/** The name with quotes and backslashes escaped by a backslash, for use inside a script string (PHP's addslashes). */
function jsText(name: string): string {
  return name.replace(/[\\'"\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`));
}

/**
 * An album entry (seed §2.3) with Hubzilla's shorttext and jstext; the root album ('') is named
 * '/' and has empty urlencode and bin2hex. bin2hex is the hex of the name, as the seed says
 * (Hubzilla 8 puts the folder's hash there).
 */
export function albumEntry(baseUrl: string, nick: string, album: { album: string; total: number }): Record<string, string> {
  const hex = Buffer.from(album.album, 'utf8').toString('hex');
  const text = album.album || '/';
  return {
    text,
    shorttext: album.album ? shortText(album.album) : '/',
    jstext: album.album ? jsText(album.album) : '/',
    total: String(album.total),
    url: `${baseUrl}/photos/${nick}/album/${hex}`,
    urlencode: album.album ? phpUrlencode(album.album) : '',
    bin2hex: hex,
  };
}
