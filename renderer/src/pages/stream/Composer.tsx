import { useDeferredValue, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { describeError, type UploadHandle } from '../../api/http.ts';
import { publishPost } from '../../api/statuses.ts';
import type { ItemUpdateResult } from '../../api/types.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import type { PostFormat } from '../../content/preview.ts';
import { usePreviewRenderer } from '../../content/usePreview.ts';
import { useKeepFocus } from '../../hooks/useKeepFocus.ts';
import { wrapSelection } from '../../content/bbcodeEdit.ts';
import { SafeHtml } from '../../content/SafeHtml.tsx';
import { AttachmentField } from './AttachmentField.tsx';
import { AudiencePicker, PUBLIC, type Audience } from './AudiencePicker.tsx';
import { BbcodeToolbar, shortcutFor } from './BbcodeToolbar.tsx';
import { LocationField, type Place } from './LocationField.tsx';

interface EditTarget {
  postId: number;
  title: string;
  body: string;
}

/** Writing a post (or editing one): title, BBCode body with a live preview to open, attachment, audience, place. */
export function Composer({ edit, onPosted, onCancel }: { edit?: EditTarget; onPosted: () => void; onCancel?: () => void }) {
  const ids = useId();
  const [title, setTitle] = useState(edit?.title ?? '');
  const [body, setBody] = useState(edit?.body ?? '');
  const [warning, setWarning] = useState('');
  const [format, setFormat] = useState<PostFormat>('text/bbcode');
  const [previewing, setPreviewing] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [audience, setAudience] = useState<Audience>(PUBLIC);
  const [place, setPlace] = useState<Place>({ location: '', coord: '' });
  const [allowComments, setAllowComments] = useState(true);
  const [progress, setProgress] = useState<number>();
  // Bumped after publishing so that the option pickers start afresh.
  const [round, setRound] = useState(0);
  const [error, setError] = useState<string>();
  const upload = useRef<UploadHandle<ItemUpdateResult>>(undefined);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const deferredBody = useDeferredValue(body);
  const renderer = usePreviewRenderer(previewing);
  const preview = useMemo(() => (previewing && renderer.render && deferredBody.trim() ? renderer.render(deferredBody, format) : ''), [previewing, renderer.render, deferredBody, format]);
  const busy = progress !== undefined;
  const keepFocus = useKeepFocus(busy, textarea);
  const uploadLabel = files.length === 1 ? files[0]!.name : `${files.length} files`;

  const reset = () => {
    setTitle('');
    setBody('');
    setWarning('');
    setFormat('text/bbcode');
    setFiles([]);
    setAudience(PUBLIC);
    setPlace({ location: '', coord: '' });
    setAllowComments(true);
    setRound((r) => r + 1);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!body.trim() && !files.length) return setError('Write something or attach a photo or file first.');
    setError(undefined);
    keepFocus();
    setProgress(0);
    upload.current = publishPost({ title: title.trim(), body, summary: warning.trim(), mimetype: edit ? undefined : format, groups: audience.groups, contacts: audience.contacts, location: place.location.trim(), coord: place.coord, attachments: files, commentsClosed: !edit && !allowComments, postId: edit?.postId }, setProgress);
    try {
      await upload.current.promise;
      if (!edit) reset();
      onPosted();
    } catch (err) {
      setError(`${edit ? 'Your changes were not saved' : 'Your post was not published'}: ${describeError(err)}`);
    } finally {
      setProgress(undefined);
      upload.current = undefined;
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    if (e.key === 'Enter') return void submit(e);
    const tag = format === 'text/bbcode' ? shortcutFor(e.key) : undefined;
    if (!tag) return;
    e.preventDefault();
    const el = e.currentTarget;
    const edit = wrapSelection(el.value, el.selectionStart, el.selectionEnd, tag.open, tag.close);
    setBody(edit.value);
    requestAnimationFrame(() => el.setSelectionRange(edit.selectionStart, edit.selectionEnd));
  };

  return (
    <form className={edit ? 'composer composer-edit' : 'card composer'} onSubmit={submit} aria-label={edit ? 'Edit post' : 'New post'}>
      <label htmlFor={`${ids}-title`} className="visually-hidden">
        Title
      </label>
      <input id={`${ids}-title`} className="composer-title" placeholder="Title (optional)" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={190} disabled={busy} />
      {!edit && (
        <>
          <label htmlFor={`${ids}-warning`} className="visually-hidden">
            Content warning
          </label>
          <input id={`${ids}-warning`} className="composer-warning" placeholder="Content warning (optional)" title="Shown instead of the post until opened" value={warning} onChange={(e) => setWarning(e.target.value)} maxLength={190} disabled={busy} />
        </>
      )}
      <div className="composer-format-row">
        {format === 'text/bbcode' ? <BbcodeToolbar target={textarea} onEdit={(ed) => setBody(ed.value)} /> : <span />}
        <span className="composer-format">
          {!edit && (
            <>
              <label htmlFor={`${ids}-format`}>Format</label>
              <select id={`${ids}-format`} value={format} onChange={(e) => setFormat(e.target.value as PostFormat)} disabled={busy}>
                <option value="text/bbcode">BBCode</option>
                <option value="text/markdown">Markdown</option>
                <option value="text/plain">Plain text</option>
              </select>
            </>
          )}
          <button type="button" className="button button-small button-quiet composer-preview-toggle" aria-pressed={previewing} aria-controls={previewing ? `${ids}-preview` : undefined} onClick={() => setPreviewing(!previewing)}>
            Preview
          </button>
        </span>
      </div>
      <div className={`composer-panes${previewing ? ' composer-panes-split' : ''}`}>
        <div className="composer-pane">
          <label htmlFor={`${ids}-body`} className="visually-hidden">
            Message
          </label>
          <textarea
            id={`${ids}-body`}
            ref={textarea}
            className="composer-body"
            placeholder={edit ? 'Your post' : "What's on your mind?"}
            rows={edit ? 6 : 4}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={busy}
          />
        </div>
        {previewing && (
          <section id={`${ids}-preview`} className="composer-pane preview" aria-label="Preview">
            <div className="preview-label">Preview</div>
            {title.trim() && <h2 className="post-title">{title}</h2>}
            {!preview ? (
              <p className="preview-empty">{renderer.failed ? 'The preview could not be loaded.' : !renderer.render ? 'Loading the preview…' : 'What you write shows here as it will be posted.'}</p>
            ) : warning.trim() ? (
              <details className="content-warning">
                <summary>{warning.trim()}</summary>
                <SafeHtml html={preview} className="post-content" />
              </details>
            ) : (
              <SafeHtml html={preview} className="post-content" />
            )}
          </section>
        )}
      </div>
      <div className="composer-options">
        <AttachmentField files={files} onChange={setFiles} disabled={busy} />
        {!edit && <AudiencePicker key={round} value={audience} onChange={setAudience} />}
        {!edit && (
          <label className="choice composer-comments" title="Whether others may comment on and like this post">
            <input type="checkbox" checked={allowComments} onChange={(e) => setAllowComments(e.target.checked)} disabled={busy} />
            <span>Allow comments</span>
          </label>
        )}
      </div>
      {!edit && <LocationField key={round} value={place} onChange={setPlace} />}
      {busy && files.length > 0 && (
        <div className="upload-status">
          <span>
            Uploading {uploadLabel} — {Math.round((progress ?? 0) * 100)}%
          </span>
          <ProgressBar value={progress ?? 0} label={`Uploading ${uploadLabel}`} />
        </div>
      )}
      {error && <ErrorNote error={error} />}
      <div className="actions">
        {busy && files.length > 0 && (
          <button type="button" className="button button-quiet" onClick={() => upload.current?.abort()}>
            Cancel upload
          </button>
        )}
        {onCancel && !busy && (
          <button type="button" className="button button-quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? (edit ? 'Saving…' : 'Posting…') : edit ? 'Save changes' : 'Post'}
        </button>
      </div>
    </form>
  );
}
