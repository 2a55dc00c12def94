import { useId, useRef, useState, type DragEvent } from 'react';
import { describeError } from '../../api/http.ts';
import { createPhoto } from '../../api/photos.ts';
import { Icon } from '../../components/Icon.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { formatSize, uploadProblem, useUploadLimit } from '../../uploadLimit.ts';

interface Job {
  key: number;
  file: File;
  album: string;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  error?: string;
}

const PARALLEL = 2;
let nextKey = 1;

/**
 * Drop or pick many photos; each uploads to the album with its own progress bar. `album` is asked
 * for when the upload starts, so that a new album's name can be typed next to the drop zone.
 */
export function PhotoUploader({ album, onUploaded }: { album: () => string | undefined; onUploaded: (album: string) => void }) {
  const inputId = useId();
  const [jobs, setJobs] = useState<Job[]>([]);
  const [dragging, setDragging] = useState(false);
  const [problem, setProblem] = useState<string>();
  const limit = useUploadLimit();
  const running = useRef(false);
  const queue = useRef<Job[]>([]);

  const update = (key: number, change: Partial<Job>) => setJobs((all) => all.map((j) => (j.key === key ? { ...j, ...change } : j)));

  const start = async (files: File[]) => {
    const target = album();
    if (target === undefined) return;
    const images = files.filter((f) => f.type.startsWith('image/'));
    const skipped = files.length - images.length;
    setProblem(skipped ? `${skipped} file(s) skipped: only photos can go into an album.` : undefined);
    if (!images.length) return;
    // Each photo is its own upload: one the hub would refuse fails at once, before sending anything.
    const added: Job[] = images.map((file) => {
      const refused = uploadProblem([file], limit);
      return { key: nextKey++, file, album: target, progress: 0, state: refused ? 'failed' : 'waiting', error: refused };
    });
    setJobs((all) => [...all.filter((j) => j.state !== 'done'), ...added]);
    queue.current.push(...added.filter((j) => j.state === 'waiting'));
    if (!queue.current.length) return;
    if (running.current) return;
    running.current = true;
    const finishedAlbums = new Set<string>();
    const worker = async () => {
      for (let job = queue.current.shift(); job; job = queue.current.shift()) {
        const { key, file } = job;
        update(key, { state: 'uploading' });
        try {
          await createPhoto(file, job.album, (p) => update(key, { progress: p })).promise;
          finishedAlbums.add(job.album);
          update(key, { state: 'done', progress: 1 });
        } catch (err) {
          update(key, { state: 'failed', error: describeError(err) });
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    running.current = false;
    for (const a of finishedAlbums) onUploaded(a);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void start(Array.from(e.dataTransfer.files));
  };

  return (
    <div className="uploader">
      <div
        className={`dropzone${dragging ? ' dropzone-active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Icon name="upload" size={28} />
        <p>
          Drop photos here, or{' '}
          <label htmlFor={inputId} className="link-label">
            choose photos
          </label>
        </p>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          accept="image/*"
          multiple
          aria-label="Choose photos to upload"
          onChange={(e) => {
            void start(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
      {problem && <p className="field-problem" role="alert">{problem}</p>}
      {jobs.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {jobs.map((j) => (
            <li key={j.key} className={`upload upload-${j.state}`}>
              <span className="upload-name">
                {j.file.name} <span className="muted">{formatSize(j.file.size)}</span>
              </span>
              <span className="upload-state">{j.state === 'done' ? 'Uploaded' : j.state === 'failed' ? 'Failed' : j.state === 'waiting' ? 'Waiting' : `${Math.round(j.progress * 100)}%`}</span>
              <ProgressBar value={j.progress} label={`Uploading ${j.file.name}`} />
              {j.error && <span className="field-problem" role="alert">{j.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
