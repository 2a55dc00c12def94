import { useRef, useState } from 'react';
import { deleteAlbum, listAlbumPhotos, listAlbums, PHOTOS_PAGE, postsShowingAlbum } from '../../api/photos.ts';
import type { PhotoListEntry } from '../../api/types.ts';
import { useAction } from '../../hooks/useAction.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotify } from '../../notices.tsx';
import { Link, navigate } from '../../router.tsx';
import { albumLabel, albumPath, countLabel, photoAlbumOf } from './albumNames.ts';
import { PhotoUploader } from './PhotoUploader.tsx';
import { PhotoViewer } from './PhotoViewer.tsx';
import { PostsShowingPhotos } from './PostsShowingPhotos.tsx';
import { RenameAlbumDialog } from './RenameAlbumDialog.tsx';

/** One album: thumbnails a page at a time, uploading more, renaming and deleting; `photoId` opens the viewer. */
export function AlbumPage({ album, photoId }: { album: string; photoId?: string }) {
  const name = photoAlbumOf(album);
  const [dialog, setDialog] = useState<'rename' | 'delete'>();
  const notify = useNotify();
  // How many pages are shown (a reload reads them again), and whether the last one was full.
  const pages = useRef(1);
  const full = useRef(false);
  const photos = useLoad(async () => {
    const out: PhotoListEntry[] = [];
    for (let page = 1; page <= pages.current; page++) {
      const entries = await listAlbumPhotos(name, page);
      out.push(...entries);
      full.current = entries.length === PHOTOS_PAGE;
      if (!full.current) break;
    }
    return out;
  }, [name]);
  const more = useAction(async () => {
    const shown = photos.data ?? [];
    const entries = await listAlbumPhotos(name, pages.current + 1);
    pages.current++;
    full.current = entries.length === PHOTOS_PAGE;
    photos.setData([...shown, ...entries.filter((p) => !shown.some((s) => s.id === p.id))]);
  });
  const albums = useLoad(listAlbums, [name]);
  const list = photos.data ?? [];
  const total = Number(albums.data?.find((a) => photoAlbumOf(a.text) === name)?.total ?? list.length);
  const reload = () => Promise.all([photos.reload(), albums.reload()]);
  const open = (id?: string) => navigate(id ? `${albumPath(name)}?photo=${encodeURIComponent(id)}` : albumPath(name));

  return (
    <div className="page">
      <p className="back">
        <Link to="/photos">← All albums</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>{albumLabel(name)}</h1>
          {photos.data && albums.data && <p className="muted">{countLabel(total)}</p>}
        </div>
        {name !== '' && (
          <div className="page-tools">
            <button type="button" className="button button-quiet" onClick={() => setDialog('rename')}>
              Rename album
            </button>
            <button type="button" className="button button-quiet button-danger-text" onClick={() => setDialog('delete')}>
              Delete album
            </button>
          </div>
        )}
      </div>
      <PhotoUploader album={() => name} onUploaded={() => void reload()} />
      {photos.status === 'loading' && !photos.data && <Loading label="Loading photos…" />}
      {photos.status === 'error' && <ErrorNote error={`The photos could not be loaded: ${photos.error}`} onRetry={photos.reload} />}
      {photos.data && list.length === 0 && <Empty title="This album is empty.">Drop photos above to add some.</Empty>}
      {list.length > 0 && (
        <ul className="photo-grid" aria-label="Photos">
          {list.map((p) => (
            <li key={p.id}>
              <a
                href={`${albumPath(name)}?photo=${encodeURIComponent(p.id)}`}
                className="photo-thumb"
                onClick={(e) => {
                  e.preventDefault();
                  open(p.id);
                }}
              >
                <img src={p.thumb} alt={p.desc || p.filename} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {photos.data && full.current && (
        <div className="load-more">
          <button type="button" className="button button-quiet" onClick={() => void more.run()} disabled={more.busy}>
            {more.busy ? 'Loading…' : 'Show more photos'}
          </button>
        </div>
      )}
      {more.error && <ErrorNote error={`More photos could not be loaded: ${more.error}`} onRetry={() => void more.run()} />}
      {photoId && photos.data && (
        <PhotoViewer
          id={photoId}
          ids={list.map((p) => p.id)}
          total={total}
          onNavigate={open}
          onClose={() => open()}
          onChanged={(movedTo) => {
            if (movedTo !== undefined && movedTo !== name) {
              notify(`The photo was moved to “${albumLabel(movedTo)}”.`, 'info');
              open();
            }
            void reload();
          }}
        />
      )}
      {dialog === 'rename' && <RenameAlbumDialog album={name} onClose={() => setDialog(undefined)} onRenamed={(to) => navigate(albumPath(to), { replace: true })} />}
      {dialog === 'delete' && (
        <ConfirmDialog
          title={`Delete the album “${name}”?`}
          message={`${total === 1 ? 'The photo' : `All ${countLabel(total)}`} in it will be deleted for good. This cannot be undone.`}
          confirmLabel="Delete album"
          onConfirm={async () => {
            await deleteAlbum(name);
            navigate('/photos');
          }}
          onClose={() => setDialog(undefined)}
        >
          {list.length > 0 && <PostsShowingPhotos load={() => postsShowingAlbum(name)} what="photos of this album" />}
        </ConfirmDialog>
      )}
    </div>
  );
}
