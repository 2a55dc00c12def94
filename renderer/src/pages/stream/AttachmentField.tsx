import { useEffect, useId, useMemo, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { formatSize, uploadProblem, useUploadLimit } from '../../uploadLimit.ts';

export { formatSize };

function AttachmentChip({ file, onRemove, disabled }: { file: File; onRemove: () => void; disabled?: boolean }) {
  const preview = useMemo(() => (file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  return (
    <li className="attachment-chip">
      {preview ? <img src={preview} alt="" /> : <Icon name="clip" />}
      <span className="attachment-name">
        {file.name} <span className="muted">({formatSize(file.size)})</span>
      </span>
      <button type="button" className="icon-button" disabled={disabled} onClick={onRemove} aria-label={`Remove attachment ${file.name}`}>
        ×
      </button>
    </li>
  );
}

/** Photos and files to send with the post. */
export function AttachmentField({ files, onChange, disabled }: { files: File[]; onChange: (files: File[]) => void; disabled?: boolean }) {
  const id = useId();
  const limit = useUploadLimit();
  const [problem, setProblem] = useState<string>();
  // Files the hub would refuse are not taken: saying so now beats after uploading them.
  const attach = (next: File[]) => {
    const refused = uploadProblem(next, limit);
    setProblem(refused);
    if (!refused) onChange(next);
  };
  return (
    <div className="attachments-field">
      {files.length > 0 && (
        <ul className="attachment-list" aria-label="Attachments">
          {files.map((f, i) => (
            <AttachmentChip key={`${f.name}-${f.size}-${f.lastModified}-${i}`} file={f} disabled={disabled} onRemove={() => attach(files.filter((_, j) => j !== i))} />
          ))}
        </ul>
      )}
      <input
        id={id}
        type="file"
        multiple
        className="visually-hidden"
        disabled={disabled}
        onChange={(e) => {
          attach([...files, ...Array.from(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className="chip chip-label">
        <Icon name="clip" size={16} /> {files.length ? 'Attach more' : 'Attach photos or files'}
      </label>
      {problem && (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
