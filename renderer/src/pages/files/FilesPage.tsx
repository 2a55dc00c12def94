import { useEffect, useId, useState, type DragEvent, type FormEvent, type ReactNode } from 'react';
import { createFolder, deleteFile, listFolders, listUnder, readFile, saveAs, uploadFile, type FileEntry } from '../../api/files.ts';
import { postsShowingAlbum, postsShowingPhoto } from '../../api/photos.ts';
import type { Status } from '../../api/types.ts';
import { Modal } from '../../components/Modal.tsx';
import { PostsShowingPhotos } from '../photos/PostsShowingPhotos.tsx';
import { describeError } from '../../api/http.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Icon } from '../../components/Icon.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { Time } from '../../components/Time.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotify } from '../../notices.tsx';
import { Link, navigate } from '../../router.tsx';
import { formatSize, uploadProblem, useUploadLimit } from '../../uploadLimit.ts';
import { useFolderContents } from './useFolderContents.ts';

/** The folders from the top down to `hash` (empty at the top level); `all` holds every folder. */
function trail(all: FileEntry[], hash: string): FileEntry[] {
  const out: FileEntry[] = [];
  const seen = new Set<string>();
  for (let at = all.find((f) => f.hash === hash); at && !seen.has(at.hash); at = all.find((f) => f.hash === at!.folder)) {
    seen.add(at.hash);
    out.unshift(at);
  }
  return out;
}

/** A folder's address: its path of names (/files/Documents/Letters), readable and stable while they are. */
export function folderPath(all: FileEntry[], hash: string): string {
  const names = trail(all, hash).map((f) => encodeURIComponent(f.filename));
  return names.length ? `/files/${names.join('/')}` : '/files';
}

/**
 * The folder at a path of names; undefined when there is none. An older address naming the
 * folder by its hash (/files/<hash>) still finds it.
 */
function folderAt(all: FileEntry[], names: string[]): FileEntry | undefined {
  let at: FileEntry | undefined;
  for (const name of names) {
    at = all.find((f) => f.is_dir === '1' && f.folder === (at?.hash ?? '') && f.filename === name);
    if (!at) break;
  }
  if (!at && names.length === 1) at = all.find((f) => f.is_dir === '1' && f.hash === names[0]);
  return at;
}

/** Files the browser shows in the page: pictures, and PDFs in its PDF viewer. */
const previewKind = (f: FileEntry): 'image' | 'pdf' | undefined => (/^image\/(jpeg|png|gif|webp)$/.test(f.filetype) ? 'image' : f.filetype === 'application/pdf' ? 'pdf' : undefined);

interface Upload {
  name: string;
  progress: number;
  error?: string;
}

/**
 * The channel's files: folders to open (at addresses of their names), pictures and PDFs to look
 * at, uploading, new folders, downloading and deleting (saying first which posts lose photos).
 * Every folder is known (they make the addresses); a folder's files are read a page at a time.
 */
export function FilesPage({ path: names = [] }: { path?: string[] }) {
  const folders = useLoad(listFolders, []);
  const notify = useNotify();
  const limit = useUploadLimit();
  const inputId = useId();
  const [newFolder, setNewFolder] = useState<string>();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [deleting, setDeleting] = useState<FileEntry>();
  const [downloading, setDownloading] = useState<{ hash: string; progress: number }>();
  const [dragging, setDragging] = useState(false);
  const [previewing, setPreviewing] = useState<FileEntry>();

  const all = folders.data ?? [];
  const here = names.length ? folderAt(all, names) : undefined;
  const folder = here?.hash ?? '';
  const missing = folders.data && names.length > 0 && !here;
  const files = useFolderContents(folders.data && !missing ? folder : undefined);
  const under = useLoad(async () => (deleting?.is_dir === '1' ? listUnder(all, deleting.hash) : []), [deleting?.hash]);
  // An address by hash (as this page once made them) becomes the address by names.
  const readable = here ? folderPath(all, here.hash) : undefined;
  useEffect(() => {
    if (readable && readable !== location.pathname) navigate(readable, { replace: true });
  }, [readable]);
  // In the hub's order (folders first, then by name): a page more goes below.
  const entries = files.data ?? [];
  const path = trail(all, folder);

  const upload = async (picked: File[]) => {
    const started = picked.map((f) => ({ name: f.name, progress: 0, error: uploadProblem([f], limit) }));
    setUploads(started);
    for (const [i, file] of picked.entries()) {
      if (started[i]!.error) continue;
      const set = (change: Partial<Upload>) => setUploads((list) => list.map((u, j) => (j === i ? { ...u, ...change } : u)));
      try {
        await uploadFile(file, folder, (progress) => set({ progress })).promise;
        set({ progress: 1 });
      } catch (err) {
        set({ error: describeError(err) });
      }
    }
    await files.reload();
  };

  const makeFolder = useAction(async (name: string) => {
    await createFolder(name, folder);
    setNewFolder(undefined);
    await Promise.all([folders.reload(), files.reload()]);
  });
  const submitFolder = (e: FormEvent) => {
    e.preventDefault();
    if (newFolder?.trim()) void makeFolder.run(newFolder.trim());
  };

  const download = async (entry: FileEntry) => {
    setDownloading({ hash: entry.hash, progress: 0 });
    try {
      saveAs(await readFile(entry, (progress) => setDownloading({ hash: entry.hash, progress })), entry.filename);
    } catch (err) {
      notify(`${entry.filename} could not be downloaded: ${describeError(err)}`);
    } finally {
      setDownloading(undefined);
    }
  };

  const dropHandlers = missing
    ? {}
    : {
        onDragOver: (e: DragEvent) => {
          if (!e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          setDragging(true);
        },
        onDragLeave: (e: DragEvent) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        },
        onDrop: (e: DragEvent) => {
          e.preventDefault();
          setDragging(false);
          if (e.dataTransfer.files.length) void upload(Array.from(e.dataTransfer.files));
        },
      };

  return (
    <div className={`page files-page${dragging ? ' files-page-dropping' : ''}`} {...dropHandlers}>
      <div className="page-head">
        <div>
          <h1>{here ? here.filename : 'Files'}</h1>
          {folder ? (
            <nav aria-label="Folder path" className="breadcrumbs">
              <Link to="/files">Files</Link>
              {path.map((p) => (
                <span key={p.hash}>
                  {' / '}
                  {p.hash === folder ? <span aria-current="page">{p.filename}</span> : <Link to={folderPath(all, p.hash)}>{p.filename}</Link>}
                </span>
              ))}
            </nav>
          ) : (
            <p className="muted">Your channel's files and folders. Only you can see what you upload here; drop files on the page to upload them.</p>
          )}
        </div>
        {!missing && (
          <div className="page-tools">
            <label htmlFor={inputId} className="button button-primary">
              <Icon name="upload" size={18} /> Upload files
            </label>
            <input
              id={inputId}
              className="visually-hidden"
              type="file"
              multiple
              aria-label="Choose files to upload"
              onChange={(e) => {
                void upload(Array.from(e.target.files ?? []));
                e.target.value = '';
              }}
            />
            <button type="button" className="button button-quiet" onClick={() => setNewFolder(newFolder === undefined ? '' : undefined)} aria-expanded={newFolder !== undefined}>
              <Icon name="plus" size={18} /> New folder
            </button>
          </div>
        )}
      </div>

      {newFolder !== undefined && (
        <form className="card inline-form" onSubmit={submitFolder}>
          <label htmlFor="new-folder">Folder name</label>
          <input id="new-folder" value={newFolder} onChange={(e) => setNewFolder(e.target.value)} maxLength={200} autoFocus placeholder="e.g. Documents" />
          <button type="submit" className="button button-primary" disabled={makeFolder.busy || !newFolder.trim()}>
            {makeFolder.busy ? 'Creating…' : 'Create folder'}
          </button>
          {makeFolder.error && <ErrorNote error={`The folder was not created: ${makeFolder.error}`} />}
        </form>
      )}

      {uploads.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {uploads.map((u, i) => (
            <li key={i} className={`upload upload-${u.error ? 'failed' : u.progress >= 1 ? 'done' : 'uploading'}`}>
              <span className="upload-name">{u.name}</span>
              <span className="upload-state">{u.error ? 'Failed' : u.progress >= 1 ? 'Uploaded' : `${Math.round(u.progress * 100)}%`}</span>
              <ProgressBar value={u.progress} label={`Uploading ${u.name}`} />
              {u.error && (
                <span className="field-problem" role="alert">
                  {u.error}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}

      {(folders.status === 'loading' || files.status === 'loading') && !files.data && !missing && <Loading label="Loading your files…" />}
      {folders.status === 'error' && <ErrorNote error={`Your files could not be loaded: ${folders.error}`} onRetry={folders.reload} />}
      {files.status === 'error' && <ErrorNote error={`Your files could not be loaded: ${files.error}`} onRetry={files.reload} />}
      {missing && (
        <Empty title="This folder does not exist any more.">
          <Link to="/files">Go to your files</Link>
        </Empty>
      )}
      {files.data && !missing && entries.length === 0 && <Empty title={folder ? 'This folder is empty.' : 'No files yet.'}>Upload files or create a folder above.</Empty>}
      {entries.length > 0 && (
        <ul className="list card files" aria-label="Files and folders">
          {entries.map((f) => {
            const dir = f.is_dir === '1';
            return (
              <li key={f.hash} className="file-row">
                {dir ? (
                  <Link to={folderPath(all, f.hash)} className="list-row file-open">
                    <span className="list-icon">
                      <Icon name="folder" />
                    </span>
                    <span className="list-main">
                      <span className="person-name file-name">{f.filename}</span>
                      <span className="muted file-facts">
                        Folder · <Time value={f.created} />
                      </span>
                    </span>
                  </Link>
                ) : (
                  <FileLine file={f} onPreview={previewKind(f) ? () => setPreviewing(f) : undefined}>
                    {downloading?.hash === f.hash && <ProgressBar value={downloading.progress} label={`Downloading ${f.filename}`} />}
                  </FileLine>
                )}
                <div className="file-actions">
                  {!dir && (
                    <button type="button" className="button button-quiet button-small" disabled={downloading?.hash === f.hash} onClick={() => void download(f)} aria-label={`Download ${f.filename}`}>
                      <Icon name="download" size={16} />
                      <span className="file-action-label">Download</span>
                    </button>
                  )}
                  <button type="button" className="button button-quiet button-small button-danger-text" onClick={() => setDeleting(f)} aria-label={`Delete ${f.filename}`}>
                    <Icon name="trash" size={16} />
                    <span className="file-action-label">Delete</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {files.hasMore && (
        <div className="load-more">
          <button type="button" className="button button-quiet" onClick={() => void files.loadMore()} disabled={files.loadingMore}>
            {files.loadingMore ? 'Loading…' : 'Show more files'}
          </button>
        </div>
      )}
      {files.moreError && <ErrorNote error={`More files could not be loaded: ${files.moreError}`} onRetry={() => void files.loadMore()} />}

      {deleting && (
        <ConfirmDialog
          title={deleting.is_dir === '1' ? `Delete the folder “${deleting.filename}”?` : `Delete “${deleting.filename}”?`}
          message={
            deleting.is_dir !== '1'
              ? 'The file is deleted for good. This cannot be undone.'
              : !under.data || under.status === 'loading'
                ? 'Everything in it goes too. This cannot be undone.'
                : under.data.length
                  ? `Everything in it goes too (${under.data.length} ${under.data.length === 1 ? 'item' : 'items'}). This cannot be undone.`
                  : 'The folder is empty. This cannot be undone.'
          }
          confirmLabel="Delete"
          onConfirm={async () => {
            await deleteFile(deleting.hash);
            notify(`${deleting.filename} was deleted.`, 'info');
            if (trail(all, folder).some((p) => p.hash === deleting.hash)) navigate(folderPath(all, deleting.folder));
            await Promise.all([folders.reload(), files.reload()]);
          }}
          onClose={() => setDeleting(undefined)}
        >
          <PhotosInUse entry={deleting} under={deleting.is_dir === '1' ? under.data : []} />
        </ConfirmDialog>
      )}
      {previewing && <Preview file={previewing} onDownload={() => void download(previewing)} onClose={() => setPreviewing(undefined)} />}
    </div>
  );
}

/** A file's line: a small picture of a photo (else an icon), its name and facts; the name opens a preview when there is one. */
function FileLine({ file, onPreview, children }: { file: FileEntry; onPreview?: () => void; children?: ReactNode }) {
  const inner = (
    <>
      <span className={`list-icon list-icon-file${file.is_photo === '1' ? ' list-icon-photo' : ''}`}>
        {file.is_photo === '1' ? <img src={`/photo/${file.hash}-2`} alt="" loading="lazy" /> : <Icon name="file" />}
      </span>
      <span className="list-main">
        <span className="person-name file-name">{file.filename}</span>
        <span className="muted file-facts">
          {formatSize(Number(file.filesize))} · <Time value={file.created} />
        </span>
        {children}
      </span>
    </>
  );
  if (!onPreview) return <div className="list-row">{inner}</div>;
  return (
    <button type="button" className="list-row file-open file-preview-open" onClick={onPreview}>
      {/* Named by what it shows (its name, size and date), after the word that says what it does. */}
      <span className="visually-hidden">Preview </span>
      {inner}
    </button>
  );
}

/** A picture or a PDF shown in the page, as the hub serves it to its owner. */
function Preview({ file, onDownload, onClose }: { file: FileEntry; onDownload: () => void; onClose: () => void }) {
  const src = `/attach/${encodeURIComponent(file.hash)}`;
  return (
    <Modal title={file.filename} onClose={onClose} wide>
      <div className="file-preview">
        {previewKind(file) === 'image' ? <img src={src} alt={file.filename} /> : <iframe src={src} title={`${file.filename} (PDF)`} />}
      </div>
      <div className="actions">
        <span className="muted file-facts">{formatSize(Number(file.filesize))}</span>
        <button type="button" className="button button-quiet" onClick={onDownload}>
          <Icon name="download" size={16} /> Download
        </button>
      </div>
    </Modal>
  );
}

/**
 * Before deleting: the posts that show photos about to go. A top-level folder with photos is a photo
 * album; any other folder or file counts its photos one by one. `under`: what the folder holds, once read.
 */
function PhotosInUse({ entry, under }: { entry: FileEntry; under: FileEntry[] | undefined }) {
  if (entry.is_dir !== '1') return entry.is_photo === '1' ? <PostsShowingPhotos load={() => postsShowingPhoto(entry.hash)} what="this photo" /> : null;
  const photos = (under ?? []).filter((f) => f.is_photo === '1');
  if (!photos.length) return null;
  const album = entry.folder === '';
  const load = async (): Promise<Status[]> => {
    if (album) return postsShowingAlbum(entry.filename);
    const found = new Map<number, Status>();
    for (const p of photos) for (const s of await postsShowingPhoto(p.hash)) found.set(s.id, s);
    return [...found.values()];
  };
  return (
    <>
      <p className="notice-box">
        {album ? `“${entry.filename}” is a photo album: ` : ''}
        {photos.length === 1 ? 'its photo goes' : `its ${photos.length} photos go`} too, from Photos and from every post that shows {photos.length === 1 ? 'it' : 'them'}.
      </p>
      <PostsShowingPhotos load={load} what={album ? 'photos of this album' : 'these photos'} />
    </>
  );
}
