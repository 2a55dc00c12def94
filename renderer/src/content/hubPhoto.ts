/** A photo of a hub by its URL (/photo/<resource id>-<scale>.<ext>): its id, and the URL of another scale. */
export interface HubPhoto {
  resourceId: string;
  scale(n: number): string;
}

const PHOTO_URL = /^(.*\/photo\/)([0-9a-f]{64})-(\d)(\.[a-z0-9]+)?$/i;

export function hubPhoto(src: string): HubPhoto | undefined {
  const m = PHOTO_URL.exec(src.split(/[?#]/)[0]!);
  if (!m) return undefined;
  const [, base, resourceId, , ext = ''] = m;
  return { resourceId: resourceId!.toLowerCase(), scale: (n) => `${base}${resourceId}-${n}${ext}` };
}
