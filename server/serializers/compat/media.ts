/** A stored upload as media/upload reports it. */
export interface MediaFacts {
  /** Row id of the stored image (usable in statuses/update media_ids). */
  id: number;
  size: number;
  width: number;
  height: number;
  mimetype: string;
  previewUrl: string;
}

export interface CompatMedia {
  media_id: number;
  media_id_string: string;
  size: number;
  expires_after_secs: number;
  image: { w: number; h: number; image_type: string; friendica_preview_url: string };
}

export function compatMedia(m: MediaFacts): CompatMedia {
  return {
    media_id: m.id,
    media_id_string: String(m.id),
    size: m.size,
    // Twitter's promise that a status can use the upload for a day; uploads here wait longer still.
    expires_after_secs: 86400,
    image: { w: m.width, h: m.height, image_type: m.mimetype, friendica_preview_url: m.previewUrl },
  };
}
