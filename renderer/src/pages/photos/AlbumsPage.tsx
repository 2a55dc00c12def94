import { useId, useState } from 'react';
import { listAlbumCovers, listAlbums } from '../../api/photos.ts';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { albumLabel, albumNameProblem, albumPath, countLabel, photoAlbumOf } from './albumNames.ts';
import { PhotoUploader } from './PhotoUploader.tsx';

/** All albums as a grid of covers with counts, and uploading into a new or existing album. */
export function AlbumsPage() {
  const albumFieldId = useId();
  const [uploading, setUploading] = useState(false);
  const [albumName, setAlbumName] = useState('');
  const [nameProblem, setNameProblem] = useState<string>();
  const data = useLoad(async () => {
    const [albums, photos] = await Promise.all([listAlbums(), listAlbumCovers()]);
    return { albums, photos };
  }, []);

  const albums = data.data?.albums.filter((a) => Number(a.total) > 0) ?? [];
  const cover = (name: string) => data.data?.photos.find((p) => p.album === photoAlbumOf(name));

  return (
    <div className="page">
      <div className="page-head">
        <h1>Photos</h1>
        <button type="button" className="button button-primary" aria-expanded={uploading} onClick={() => setUploading(!uploading)}>
          {uploading ? 'Close upload' : 'Upload photos'}
        </button>
      </div>
      {uploading && (
        <section className="card upload-panel" aria-label="Upload photos">
          <label htmlFor={albumFieldId}>Album</label>
          <input
            id={albumFieldId}
            list={`${albumFieldId}-names`}
            value={albumName}
            placeholder="A new album name, or an existing one"
            onChange={(e) => {
              setAlbumName(e.target.value);
              setNameProblem(undefined);
            }}
          />
          <datalist id={`${albumFieldId}-names`}>
            {albums.map((a) => (
              <option key={a.text} value={photoAlbumOf(a.text)} />
            ))}
          </datalist>
          {nameProblem && <p className="field-problem" role="alert">{nameProblem}</p>}
          <PhotoUploader
            album={() => {
              const name = albumName.trim();
              const problem = name ? albumNameProblem(name) : 'Give the album a name first.';
              setNameProblem(problem);
              return problem ? undefined : name;
            }}
            onUploaded={() => void data.reload()}
          />
          {albumName.trim() && albums.some((a) => a.text === albumName.trim()) && (
            <p>
              <Link to={albumPath(albumName.trim())}>Open the album “{albumName.trim()}”</Link>
            </p>
          )}
        </section>
      )}
      {data.status === 'loading' && !data.data && <Loading label="Loading your albums…" />}
      {data.status === 'error' && <ErrorNote error={`Your albums could not be loaded: ${data.error}`} onRetry={data.reload} />}
      {data.data && albums.length === 0 && (
        <Empty title="No photos yet.">
          <button type="button" className="link-button" onClick={() => setUploading(true)}>
            Upload some photos
          </button>{' '}
          to start your first album.
        </Empty>
      )}
      {albums.length > 0 && (
        <ul className="album-grid" aria-label="Albums">
          {albums.map((a) => {
            const c = cover(a.text);
            return (
              <li key={a.text}>
                <Link to={albumPath(a.text)} className="album-card">
                  <span className="album-cover">{c ? <img src={c.thumb} alt="" loading="lazy" /> : <span className="album-cover-empty" aria-hidden="true" />}</span>
                  <span className="album-name">{albumLabel(a.text)}</span>
                  <span className="album-count muted">{countLabel(Number(a.total))}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
