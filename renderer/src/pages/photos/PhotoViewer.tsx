import { useEffect, useState, type FormEvent } from 'react';
import { deletePhoto, getPhoto, photoUrl, postsShowingPhoto, updatePhoto, makeProfilePhoto } from '../../api/photos.ts';
import { Icon } from '../../components/Icon.tsx';
import { Modal } from '../../components/Modal.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useMe } from '../../me.tsx';
import { useNotify } from '../../notices.tsx';
import { albumLabel, albumNameProblem } from './albumNames.ts';
import { PostsShowingPhotos } from './PostsShowingPhotos.tsx';
import { FullSizeImage, ViewerStage } from './ViewerStage.tsx';

/** One photo large, with previous/next, caption and album editing, delete and "use as profile photo". */
export function PhotoViewer({
  id,
  ids,
  total,
  onNavigate,
  onClose,
  onChanged,
}: {
  id: string;
  ids: string[];
  /** How many photos the album holds (more than `ids` while only some pages are loaded). */
  total?: number;
  onNavigate: (id: string) => void;
  onClose: () => void;
  onChanged: (movedToAlbum?: string) => void;
}) {
  const photo = useLoad(() => getPhoto(id), [id]);
  const [desc, setDesc] = useState('');
  const [album, setAlbum] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The original (scale 0) can be many megabytes: it is fetched only when the user asks for it.
  const [fullSize, setFullSize] = useState(false);
  const notify = useNotify();
  const { photoChanged } = useMe();
  const index = ids.indexOf(id);
  const prev = index > 0 ? ids[index - 1] : undefined;
  const next = index >= 0 && index < ids.length - 1 ? ids[index + 1] : undefined;

  useEffect(() => {
    if (photo.data) {
      setDesc(photo.data.desc ?? '');
      setAlbum(photo.data.album ?? '');
      setConfirmDelete(false);
    }
  }, [photo.data]);
  useEffect(() => setFullSize(false), [id]);

  const save = useAction(async () => {
    const current = photo.data!;
    const to = album.trim();
    const problem = albumNameProblem(to);
    if (problem) throw new Error(problem);
    await updatePhoto(current, { desc, album: to });
    await photo.reload();
    onChanged(to !== current.album ? to : undefined);
  });
  const remove = useAction(async () => {
    await deletePhoto(id);
    onChanged();
    if (next) onNavigate(next);
    else if (prev) onNavigate(prev);
    else onClose();
  });
  const makeProfile = useAction(async () => {
    await makeProfilePhoto(photo.data!);
    await photoChanged();
    notify('This photo is now your profile photo.', 'info');
  });

  const p = photo.data;
  const src = p && photoUrl(p, [1, 0, 2, 3]);
  const original = p && photoUrl(p, [0, 1, 2, 3]);
  const dirty = p && (desc !== (p.desc ?? '') || album.trim() !== (p.album ?? ''));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };

  return (
    <Modal title={p ? p.desc || p.filename || 'Photo' : 'Photo'} onClose={onClose} wide>
      <div className="viewer">
        <ViewerStage onPrev={prev ? () => onNavigate(prev) : undefined} onNext={next ? () => onNavigate(next) : undefined}>
          {photo.status === 'loading' && <Loading label="Loading the photo…" />}
          {photo.status === 'error' && <ErrorNote error={`The photo could not be loaded: ${photo.error}`} onRetry={photo.reload} />}
          {p && photo.status !== 'loading' && !src && <p>This photo has no image.</p>}
          {p && photo.status !== 'loading' && src && !fullSize && <img className="viewer-image" src={src} alt={p.desc || p.filename} />}
          {p && photo.status !== 'loading' && original && fullSize && <FullSizeImage src={original} alt={p.desc || p.filename} width={p.width} height={p.height} />}
        </ViewerStage>
        {p && (
          <div className="viewer-side">
            <p className="muted">
              {index >= 0 ? `${index + 1} of ${Math.max(total ?? 0, ids.length)}` : ''} · {p.filename} {p.width && p.height ? `· ${p.width}×${p.height}` : ''}
            </p>
            <form className="form" onSubmit={onSubmit}>
              <label>
                Caption
                <textarea rows={3} value={desc} onChange={(e) => setDesc(e.target.value)} />
              </label>
              <label>
                Album
                <input value={album} onChange={(e) => setAlbum(e.target.value)} placeholder={albumLabel('')} />
              </label>
              {save.error && <ErrorNote error={`The changes were not saved: ${save.error}`} />}
              <button type="submit" className="button button-primary" disabled={!dirty || save.busy}>
                {save.busy ? 'Saving…' : 'Save'}
              </button>
            </form>
            {original && (
              <div className="viewer-size-tools">
                <button type="button" className="button button-quiet" aria-pressed={fullSize} onClick={() => setFullSize(!fullSize)}>
                  <Icon name={fullSize ? 'shrink' : 'expand'} size={18} /> {fullSize ? 'Fit to window' : 'View full size'}
                </button>
                <a className="button button-quiet" href={original} download={p.filename || 'photo'}>
                  <Icon name="download" size={18} /> Download
                </a>
              </div>
            )}
            <div className="viewer-tools">
              <button type="button" className="button button-quiet" onClick={() => void makeProfile.run()} disabled={makeProfile.busy}>
                {makeProfile.busy ? 'Setting…' : 'Use as profile photo'}
              </button>
              {makeProfile.error && <ErrorNote error={`The profile photo was not changed: ${makeProfile.error}`} />}
              {!confirmDelete ? (
                <button type="button" className="button button-quiet button-danger-text" onClick={() => setConfirmDelete(true)}>
                  Delete photo
                </button>
              ) : (
                <div className="confirm-inline" role="group" aria-label="Confirm deleting">
                  <p>Delete this photo for good? This cannot be undone.</p>
                  <PostsShowingPhotos load={() => postsShowingPhoto(id)} what="this photo" />
                  <div className="actions">
                    <button type="button" className="button button-quiet" onClick={() => setConfirmDelete(false)} autoFocus>
                      Keep it
                    </button>
                    <button type="button" className="button button-danger" onClick={() => void remove.run()} disabled={remove.busy}>
                      {remove.busy ? 'Deleting…' : 'Delete'}
                    </button>
                  </div>
                  {remove.error && <ErrorNote error={`The photo was not deleted: ${remove.error}`} />}
                </div>
              )}
            </div>
          </div>
        )}
      </div>
    </Modal>
  );
}
