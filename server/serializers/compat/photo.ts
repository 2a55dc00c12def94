import type { PhotoRow } from '../../store/rows.js';
import { ATTRIBUTES, TEXT } from '../../http/xml.js';
import type { CompatActivities, CompatStatus } from './status.js';

/** What an ext/photo answer is made of. */
export interface PhotoFacts {
  /** Every scale of the photo, smallest scale number first. */
  scales: PhotoRow[];
  /** URL of a scale. */
  url: (scale: number) => string;
  /** The requested scale and its bytes (base64), when a scale was asked for. */
  selected?: { row: PhotoRow; data: string };
  activities?: CompatActivities;
  comments?: CompatStatus[];
  /** Whether the photo's audience differs from its item's. */
  rightsMismatch?: boolean;
}

function common(f: PhotoFacts) {
  const row = f.selected?.row ?? f.scales[0]!;
  return {
    id: row.resource_id,
    created: row.created,
    edited: row.edited,
    title: row.title,
    desc: row.description,
    album: row.album,
    filename: row.filename,
    type: row.mimetype,
    height: row.height,
    width: row.width,
    profile: String(row.profile),
  };
}

function extras(f: PhotoFacts) {
  const out: Record<string, unknown> = {};
  if (f.activities) out.friendica_activities = f.activities;
  if (f.comments) out.friendica_comments = f.comments;
  if (f.rightsMismatch !== undefined) out.rights_mismatch = f.rightsMismatch;
  return out;
}

/**
 * ext/photo as JSON (compat seed §2.1): values are strings except height and width; link maps
 * each scale to its URL; with a scale, datasize and data (base64) of that scale.
 */
export function compatPhotoJson(f: PhotoFacts): Record<string, unknown> {
  const out: Record<string, unknown> = common(f);
  if (f.selected) {
    out.link = { [String(f.selected.row.imgscale)]: f.url(f.selected.row.imgscale) };
    out.datasize = String(f.selected.row.filesize);
    out.data = f.selected.data;
  } else {
    out.link = Object.fromEntries(f.scales.map((s) => [String(s.imgscale), f.url(s.imgscale)]));
  }
  return { ...out, ...extras(f) };
}

/** ext/photo as XML: the same fields as elements, and links (type="array") of link elements with type, scale and href attributes. */
export function compatPhotoXml(f: PhotoFacts): Record<string, unknown> {
  const shown = f.selected ? [f.selected.row] : f.scales;
  const out: Record<string, unknown> = {
    ...common(f),
    links: shown.map((s) => ({ [ATTRIBUTES]: { type: s.mimetype, scale: s.imgscale, href: f.url(s.imgscale) } })),
  };
  if (f.selected) Object.assign(out, { datasize: String(f.selected.row.filesize), data: f.selected.data });
  return { ...out, ...extras(f) };
}

/** An ext/photos/list entry (compat seed §2.2). */
export function compatPhotoListEntry(row: Pick<PhotoRow, 'resource_id' | 'album' | 'filename' | 'mimetype'>, thumb: string) {
  return { id: row.resource_id, album: row.album, filename: row.filename, type: row.mimetype, thumb };
}

/** The XML form of a list entry: attributes, with the thumbnail URL as text. */
export function compatPhotoListXml(row: Pick<PhotoRow, 'resource_id' | 'album' | 'filename' | 'mimetype'>, thumb: string) {
  return { [ATTRIBUTES]: { id: row.resource_id, album: row.album, filename: row.filename, type: row.mimetype }, [TEXT]: thumb };
}

/** The {result, message} envelope of the photo maintenance endpoints (notes §2.17). */
export function resultEnvelope(result: 'deleted' | 'updated' | 'cancelled' | 'ok' | 'error', message: string) {
  return { result, message };
}
