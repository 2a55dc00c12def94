import type { Db } from '../db/open.js';
import { htmlToText, renderBody } from '../content/render.js';
import { itemsWithWords, setItemAttach, setItemHtml, type ItemRendering } from '../store/items.js';
import { deletedPhotoIds } from '../store/photos.js';

/** A photo of this hub in rendered HTML: /photo/<resource id>-<scale>.<ext>. */
const PHOTO_SRC = String.raw`\/photo\/([0-9a-f]{64})-\d+\.[a-z0-9]+"`;
const IMG = String.raw`<img\b[^>]*?\bsrc="[^"]*${PHOTO_SRC}[^>]*>`;
const LINKED_IMG = new RegExp(String.raw`<a\b[^>]*>\s*${IMG}\s*<\/a>`, 'gi');
const LONE_IMG = new RegExp(IMG, 'gi');

function removedNote(img: string): string {
  // The alt text is the photo's file name, escaped already.
  const alt = /\balt="([^"]*)"/.exec(img)?.[1];
  return `<span class="photo-removed">Photo removed${alt ? `: ${alt}` : ''}</span>`;
}

/** The HTML with each image (and the link around it) of a deleted photo replaced by a note saying so. */
export function withoutDeletedPhotos(html: string, deleted: ReadonlySet<string>): string {
  const replace = (whole: string, id: string) => (deleted.has(id) ? removedNote(whole) : whole);
  return html.replace(LINKED_IMG, replace).replace(LONE_IMG, replace);
}

/** The HTML stored for an item body: rendered, with the photos deleted since shown as a note. */
export function itemHtml(db: Db, body: string, mimetype: string): string {
  const html = renderBody(body, mimetype);
  if (!html.includes('/photo/')) return html;
  const ids = [...new Set(Array.from(html.matchAll(new RegExp(PHOTO_SRC, 'gi')), (m) => m[1]!))];
  const deleted = deletedPhotoIds(db, ids);
  return deleted.size ? withoutDeletedPhotos(html, deleted) : html;
}

/** What an item keeps of its body's rendering: the HTML (see itemHtml) and its plain text. */
export function itemRendering(db: Db, body: string, mimetype: string): ItemRendering {
  const html = itemHtml(db, body, mimetype);
  return { html, html_text: htmlToText(html) };
}

/** item.attach without the entries of these (deleted) files. */
function attachWithout(attach: string, resourceIds: string[]): string {
  let entries: unknown;
  try {
    entries = JSON.parse(attach);
  } catch {
    return attach;
  }
  if (!Array.isArray(entries)) return attach;
  const kept = entries.filter((e) => !resourceIds.some((id) => JSON.stringify(e).includes(id)));
  return kept.length === entries.length ? attach : kept.length ? JSON.stringify(kept) : '';
}

/**
 * After photos were deleted: posts that showed them get their HTML made again (a note instead of
 * the image) and lose them as attachments. Runs inside the deleting transaction.
 */
export function updatePostsShowing(db: Db, resourceIds: string[]): number {
  const items = itemsWithWords(db, resourceIds);
  for (const item of items) {
    setItemHtml(db, item.id, itemRendering(db, item.body, item.mimetype));
    if (item.attach) {
      const attach = attachWithout(item.attach, resourceIds);
      if (attach !== item.attach) setItemAttach(db, item.id, attach);
    }
  }
  return items.length;
}

