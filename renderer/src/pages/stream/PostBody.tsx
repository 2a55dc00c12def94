import { isElsewhere } from '../../api/people.ts';
import type { Status } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Icon } from '../../components/Icon.tsx';
import { Time } from '../../components/Time.tsx';
import { SafeHtml, type PostLinks } from '../../content/SafeHtml.tsx';
import { Link } from '../../router.tsx';
import { Audience } from './Audience.tsx';
import { authorOf, threadId } from './threads.ts';

/**
 * The post's HTML without the leading <h4>title</h4> that statusnet_html carries (the title is
 * shown apart). Compared as text, since the heading holds the title HTML-escaped.
 */
function bodyHtml(status: Status): string {
  const html = status.statusnet_html ?? status.friendica_html ?? '';
  const title = status.friendica_title?.trim();
  if (!title) return html;
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const first = doc.body.firstElementChild;
  if (first?.tagName !== 'H4' || first.textContent?.trim() !== title) return html;
  first.remove();
  return doc.body.innerHTML;
}

/** The 64-hex file key in a photo or file URL (/attach/<key>, /photo/<key>-2.png). */
const fileKey = (url: string) => /[0-9a-f]{64}/.exec(url)?.[0];

function Attachments({ status, html }: { status: Status; html: string }) {
  // A photo attached to a post is in its text already (a scale of it, under the same key).
  const extra = (status.attachments ?? []).filter((a) => !html.includes(a.url) && !(fileKey(a.url) && html.includes(fileKey(a.url)!)));
  if (!extra.length) return null;
  return (
    <ul className="attachments">
      {extra.map((a) =>
        a.mimetype?.startsWith('image/') ? (
          <li key={a.url}>
            <a href={a.url} target="_blank" rel="noopener noreferrer">
              <img src={a.url} alt="Attached image" loading="lazy" />
            </a>
          </li>
        ) : (
          <li key={a.url}>
            <a href={a.url} target="_blank" rel="noopener noreferrer" className="file-link">
              <Icon name="clip" size={16} /> {decodeURIComponent(a.url.split('/').pop() ?? 'Attachment')}
              {a.size ? <span className="muted"> ({Math.ceil(a.size / 1024)} KB)</span> : null}
            </a>
          </li>
        ),
      )}
    </ul>
  );
}

function postLinks(status: Status): PostLinks {
  const e = status.entities;
  return {
    tags: new Set((e?.hashtags ?? []).map((h) => h.text.toLowerCase())),
    mentions: new Set((e?.user_mentions ?? []).map((m) => m.screen_name.toLowerCase())),
  };
}

/** The host of the original of a post from elsewhere, for its link; undefined when it has no web address. */
function originHost(status: Status): string | undefined {
  try {
    return status.external_url ? new URL(status.external_url).host : undefined;
  } catch {
    return undefined;
  }
}

export function PostBody({ status, compact }: { status: Status; compact?: boolean }) {
  const author = authorOf(status);
  // Someone elsewhere: their address, and the post where it lives.
  const elsewhere = isElsewhere(author);
  const origin = elsewhere ? originHost(status) : undefined;
  const html = bodyHtml(status);
  const geo = status.geo?.coordinates;
  return (
    <div className={compact ? 'post post-compact' : 'post'}>
      <div className="post-head">
        <Avatar src={author.profile_image_url} name={author.name || author.screen_name} size={compact ? 32 : 44} />
        <div className="post-meta">
          <Link to={`/channel/${encodeURIComponent(author.screen_name)}`} className="post-author">
            {author.name || author.screen_name}
          </Link>
          {elsewhere && <span className="muted post-address">@{author.screen_name}</span>}
          <span className="muted post-sub">
            <Link to={`/item/${threadId(status)}`}>
              <Time value={status.created_at} />
            </Link>
            {!compact && <Audience status={status} />}
            {origin && (
              <a href={status.external_url} className="post-origin" target="_blank" rel="noopener noreferrer">
                <Icon name="link" size={13} /> Original on {origin}
              </a>
            )}
          </span>
        </div>
      </div>
      {status.friendica_title ? <h2 className="post-title">{status.friendica_title}</h2> : null}
      {html ? <SafeHtml html={html} className="post-content" links={postLinks(status)} /> : <p className="post-content">{status.text}</p>}
      <Attachments status={status} html={html} />
      {geo && (
        <a className="post-place muted" href={`https://www.openstreetmap.org/?mlat=${geo[0]}&mlon=${geo[1]}#map=15/${geo[0]}/${geo[1]}`} target="_blank" rel="noopener noreferrer">
          <Icon name="pin" size={14} /> {geo[0].toFixed(4)}, {geo[1].toFixed(4)}
        </a>
      )}
    </div>
  );
}
