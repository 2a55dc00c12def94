import type { XMLBuilder as XMLBuilderType } from 'fast-xml-parser';
import { lazyPackage } from '../../util/lazy.js';

const fastXmlParser = lazyPackage<{ XMLBuilder: typeof XMLBuilderType }>('fast-xml-parser');
import { xmlSafeText } from '../../http/xml.js';
import { fromDbDate } from '../../util/time.js';

/** One entry of an RSS/Atom feed of statuses. */
export interface FeedEntry {
  /** Stable URI of the item (its message id as a URL). */
  id: string;
  link: string;
  title: string;
  html: string;
  /** 'YYYY-MM-DD HH:MM:SS' UTC */
  published: string;
  updated: string;
  authorName: string;
  authorUri: string;
}

export interface FeedMeta {
  title: string;
  /** The feed's own URL. */
  self: string;
  /** The HTML page the feed stands for. */
  alternate: string;
  description: string;
  generator: string;
}

let builderMemo: XMLBuilderType | undefined;
const builder = () => (builderMemo ??= new (fastXmlParser().XMLBuilder)({ ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text', format: true, indentBy: '  ', suppressEmptyNode: true }));

const text = (s: string) => xmlSafeText(s);

function rfc822(db: string): string {
  return fromDbDate(db).toUTCString();
}

function iso(db: string): string {
  return fromDbDate(db).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function latest(entries: FeedEntry[]): string {
  return entries.reduce((m, e) => (e.updated > m ? e.updated : m), '1970-01-01 00:00:00');
}

/** An RSS 2.0 document. */
export function rssFeed(meta: FeedMeta, entries: FeedEntry[]): string {
  const doc = {
    rss: {
      '@_version': '2.0',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      '@_xmlns:dc': 'http://purl.org/dc/elements/1.1/',
      channel: {
        title: text(meta.title),
        link: meta.alternate,
        description: text(meta.description),
        'atom:link': { '@_href': meta.self, '@_rel': 'self', '@_type': 'application/rss+xml' },
        lastBuildDate: rfc822(latest(entries)),
        generator: meta.generator,
        item: entries.map((e) => ({
          title: text(e.title),
          link: e.link,
          guid: { '@_isPermaLink': 'false', '#text': e.id },
          pubDate: rfc822(e.published),
          'dc:creator': text(e.authorName),
          description: text(e.html),
        })),
      },
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder().build(doc)}`;
}

/** An Atom 1.0 document. */
export function atomFeed(meta: FeedMeta, entries: FeedEntry[]): string {
  const doc = {
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      id: meta.self,
      title: text(meta.title),
      subtitle: text(meta.description),
      updated: iso(latest(entries)),
      link: [
        { '@_rel': 'self', '@_type': 'application/atom+xml', '@_href': meta.self },
        { '@_rel': 'alternate', '@_type': 'text/html', '@_href': meta.alternate },
      ],
      generator: meta.generator,
      entry: entries.map((e) => ({
        id: e.id,
        title: text(e.title),
        link: { '@_rel': 'alternate', '@_type': 'text/html', '@_href': e.link },
        published: iso(e.published),
        updated: iso(e.updated),
        author: { name: text(e.authorName), uri: e.authorUri },
        content: { '@_type': 'html', '#text': text(e.html) },
      })),
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder().build(doc)}`;
}
