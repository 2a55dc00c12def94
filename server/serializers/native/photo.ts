import type { PhotoRow } from '../../store/rows.js';
import type { PhotoListingRow } from '../../store/photos.js';
import { pickAsStrings, stringifyInts } from './ints.js';

const LISTING_FIELDS: readonly (keyof PhotoListingRow)[] = [
  'resource_id', 'created', 'edited', 'title', 'description', 'album', 'filename', 'mimetype', 'height', 'width', 'filesize',
  'imgscale', 'photo_usage', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
];

/** A photos listing entry: one per scale, with the URL it is served at. */
export function photoListing(row: PhotoListingRow, src: string): Record<string, string> {
  return { ...pickAsStrings(row as unknown as Record<string, unknown>, LISTING_FIELDS), src };
}

/** The photo endpoint's record: every column, content replaced by the base64 bytes of that scale. */
export function photoRecord(row: PhotoRow, contentBase64: string): Record<string, string> {
  return { ...stringifyInts(row), content: contentBase64 } as Record<string, string>;
}
