/**
 * Points links to the channel's things on the source hub (its page, photos, files) at the same
 * things here, so that imported posts show their pictures and link where the channel now lives.
 * Links to anything else stay as they were.
 */
export class LinkRewriter {
  private readonly pattern: RegExp;

  constructor(
    /** The source hub under every base URL it may have used in links (its own, the one it was reached at). */
    private readonly source: { bases: string[]; nick: string; channelId: string },
    private readonly target: { base: string; nick: string; channelId: string },
    /** Source file hash → hash here, for the files imported so far. */
    private readonly files: ReadonlyMap<string, string>,
    /** Source folder hash → the album it became here (album URLs of Hubzilla name the folder). */
    private readonly albums: ReadonlyMap<string, string> = new Map(),
  ) {
    const escaped = source.bases.map((b) => b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    // Not followed by more of a host name or port: http://a.b:80 is no prefix of http://a.b:8080.
    this.pattern = new RegExp(`(?:${escaped})(?![\\w.:-])(/[^\\s\\[\\]"'<>]*)?`, 'g');
  }

  /** Every link to the source channel's things in a text (a body, JSON) pointed here. */
  text(s: string): string {
    if (!s || !this.source.bases.some((b) => s.includes(b))) return s;
    return s.replace(this.pattern, (whole, path: string | undefined) => {
      const moved = this.path(path ?? '');
      return moved === undefined ? whole : this.target.base + moved;
    });
  }

  /** The file hash here of a source hash at the start of `rest` (hashes may contain '-'), and what follows it. */
  private fileAt(rest: string): { hash: string; tail: string } | undefined {
    for (let end = rest.length; end > 0; end--) {
      if (end < rest.length && !/[-.?#/]/.test(rest[end]!)) continue;
      const mapped = this.files.get(rest.slice(0, end));
      if (mapped) return { hash: mapped, tail: rest.slice(end) };
    }
    return undefined;
  }

  private path(path: string): string | undefined {
    const { nick } = this.source;
    const to = this.target;
    let m: RegExpExecArray | null;
    if ((m = /^\/(photo|attach)\/(.+)$/.exec(path))) {
      if ((m = /^\/photo\/profile\/([lms])\/(\d+)(.*)$/.exec(path))) return m[2] === this.source.channelId ? `/photo/profile/${m[1]}/${to.channelId}${m[3]}` : undefined;
      const kind = path.startsWith('/photo/') ? 'photo' : 'attach';
      const f = this.fileAt(path.slice(kind.length + 2));
      return f && `/${kind}/${f.hash}${f.tail}`;
    }
    if ((m = /^\/photos\/([^/?#]+)(\/.*)?$/.exec(path)) && m[1] === nick) {
      const rest = m[2] ?? '';
      let im: RegExpExecArray | null;
      if ((im = /^\/image\/(.+)$/.exec(rest))) {
        const f = this.fileAt(im[1]!);
        return f && `/photos/${to.nick}/image/${f.hash}${f.tail}`;
      }
      if ((im = /^\/album\/([^/?#]+)(.*)$/.exec(rest))) {
        const album = this.albums.get(im[1]!);
        return album !== undefined ? `/photos/${to.nick}/album/${Buffer.from(album, 'utf8').toString('hex')}${im[2]}` : undefined;
      }
      return `/photos/${to.nick}${rest}`;
    }
    if ((m = /^\/channel\/([^/?#]+)(.*)$/.exec(path)) && m[1] === nick) return `/channel/${to.nick}${m[2]}`;
    if (/^\/(display|search)(\/|\?|$)/.test(path)) return path;
    if (path === '' || path === '/') return path;
    return undefined;
  }
}
