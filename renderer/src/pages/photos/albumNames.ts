/** The root album is "/" in the native listing and an empty album name on photos. */
export const ROOT_ALBUM = '/';

export const photoAlbumOf = (albumText: string) => (albumText === ROOT_ALBUM ? '' : albumText);

export const albumLabel = (name: string) => (name === '' || name === ROOT_ALBUM ? 'Unsorted' : name);

export const albumPath = (name: string) => `/photos/album/${encodeURIComponent(name === '' ? ROOT_ALBUM : name)}`;

export function countLabel(n: number): string {
  return n === 1 ? '1 photo' : `${n} photos`;
}

/** Albums are folders: a name cannot hold "/" or "\\" (the hub refuses it rather than change it). */
export function albumNameProblem(name: string): string | undefined {
  return /[/\\]/.test(name) ? 'An album name cannot contain “/” or “\\”.' : undefined;
}
