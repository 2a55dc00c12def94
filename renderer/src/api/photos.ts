import { COMPAT, NATIVE, call, get, post, upload, type UploadHandle } from './http.ts';
import type { Album, Photo, PhotoListEntry, Status, User } from './types.ts';

export async function listAlbums(): Promise<Album[]> {
  const res = await get<{ success: boolean; albums?: Album[] } | false>(`${NATIVE}albums`);
  return res && res.albums ? res.albums : [];
}

/** An album's photos are read this many at a time. */
export const PHOTOS_PAGE = 100;

/** A page of one album's photos ('' is the root album), oldest first; `page` counts from 1. */
export async function listAlbumPhotos(album: string, page: number): Promise<PhotoListEntry[]> {
  const res = await get<PhotoListEntry[] | false | undefined>(`${COMPAT}ext/photos/list`, { album, page, count: PHOTOS_PAGE });
  return Array.isArray(res) ? res : [];
}

/** Each album's first photo, its cover. */
export async function listAlbumCovers(): Promise<PhotoListEntry[]> {
  const res = await get<PhotoListEntry[] | false | undefined>(`${COMPAT}ext/photos/list`, { album_covers: 1 });
  return Array.isArray(res) ? res : [];
}

export function getPhoto(id: string): Promise<Photo> {
  return get<Photo>(`${COMPAT}ext/photo`, { photo_id: id });
}

/** The URL of a scale of a photo, or the nearest larger one that exists. */
export function photoUrl(photo: Photo, preferred: number[]): string | undefined {
  const links = photo.link;
  if (Array.isArray(links)) {
    for (const scale of preferred) {
      const hit = links.find((l) => new RegExp(`-${scale}(\\.[a-z0-9]+)?$`, 'i').test(l));
      if (hit) return hit;
    }
    return links[0];
  }
  for (const scale of preferred) if (links?.[String(scale)]) return links[String(scale)];
  return Object.values(links ?? {})[0];
}

export function createPhoto(file: File, album: string, onProgress: (fraction: number) => void): UploadHandle<Photo> {
  const form = new FormData();
  form.append('album', album);
  form.append('desc', '');
  form.append('media', file, file.name);
  return upload<Photo>(`${COMPAT}ext/photo/create`, form, onProgress);
}

export function updatePhoto(photo: Photo, changes: { desc: string; album: string }): Promise<unknown> {
  const params: Record<string, string> = { photo_id: photo.id, album: photo.album, desc: changes.desc };
  if (changes.album !== photo.album) params.album_new = changes.album;
  return post(`${COMPAT}ext/photo/update`, params);
}

export function deletePhoto(id: string): Promise<unknown> {
  return call('DELETE', `${COMPAT}ext/photo/delete`, { photo_id: id });
}

export function renameAlbum(album: string, albumNew: string): Promise<unknown> {
  return post(`${COMPAT}ext/photoalbum/update`, { album, album_new: albumNew });
}

export function deleteAlbum(album: string): Promise<unknown> {
  return post(`${COMPAT}ext/photoalbum/delete`, { album });
}

/** Makes an image the channel's profile photo (the hub stores it again at the profile scales). */
export function setProfileImage(image: Blob, filename: string, onProgress?: (fraction: number) => void): UploadHandle<User> {
  const form = new FormData();
  form.append('image', image, filename);
  return upload<User>(`${COMPAT}account/update_profile_image`, form, onProgress);
}

/** Sets an existing photo as the profile photo by sending its original image back to the hub. */
export async function makeProfilePhoto(photo: Photo): Promise<User> {
  const url = photoUrl(photo, [0, 1, 2]);
  if (!url) throw new Error('This photo has no image to use.');
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`The photo could not be read (${res.status}).`);
  return setProfileImage(await res.blob(), photo.filename || 'profile.jpg').promise;
}

/** The posts showing a photo of this album (what deleting it would leave with a "photo removed" note). */
export function postsShowingAlbum(album: string): Promise<Status[]> {
  return get<Status[]>(`${COMPAT}ext/photoalbum/posts`, { album, count: 100 });
}

/** The posts showing this photo. */
export function postsShowingPhoto(id: string): Promise<Status[]> {
  return get<Status[]>(`${COMPAT}ext/photo/posts`, { photo_id: id, count: 100 });
}
