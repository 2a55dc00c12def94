import { useId } from 'react';
import { listAlbums } from '../../api/photos.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { photoAlbumOf } from '../photos/albumNames.ts';

/** This month as the hub names its albums for posts' photos (YYYY-MM). */
export function monthAlbum(when = new Date()): string {
  return `${when.getFullYear()}-${String(when.getMonth() + 1).padStart(2, '0')}`;
}

/**
 * Where the photos and files attached to a post are kept (Photos, Files): an album, this month's
 * unless another is named, chosen among the channel's albums or new.
 */
export function AlbumField({ value, onChange, photos, disabled }: { value: string; onChange: (album: string) => void; photos: boolean; disabled?: boolean }) {
  const id = useId();
  const albums = useLoad(listAlbums, []);
  const names = (albums.data ?? []).map((a) => photoAlbumOf(a.text)).filter(Boolean);
  return (
    <div className="album-field">
      <label htmlFor={id}>{photos ? 'Photos go to the album' : 'Files go to the folder'}</label>
      <input id={id} list={`${id}-albums`} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} maxLength={190} />
      <datalist id={`${id}-albums`}>
        {names.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
    </div>
  );
}
