import { phpUrlencode } from '../../util/urlencode.js';

/** An album entry (seed §2.3); the root album ('') is named '/' and has empty urlencode and bin2hex. */
export function albumEntry(baseUrl: string, nick: string, album: { album: string; total: number }): Record<string, string> {
  const hex = Buffer.from(album.album, 'utf8').toString('hex');
  return {
    text: album.album || '/',
    total: String(album.total),
    url: `${baseUrl}/photos/${nick}/album/${hex}`,
    urlencode: album.album ? phpUrlencode(album.album) : '',
    bin2hex: hex,
  };
}
