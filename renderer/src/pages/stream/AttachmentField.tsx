import { useEffect, useId, useMemo } from 'react';
import { Icon } from '../../components/Icon.tsx';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One photo or file to send with the post. */
export function AttachmentField({ file, onChange, disabled }: { file?: File; onChange: (f?: File) => void; disabled?: boolean }) {
  const id = useId();
  const preview = useMemo(() => (file && file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined), [file]);
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  if (file)
    return (
      <div className="attachment-chip">
        {preview ? <img src={preview} alt="" /> : <Icon name="clip" />}
        <span className="attachment-name">
          {file.name} <span className="muted">({formatSize(file.size)})</span>
        </span>
        <button type="button" className="icon-button" disabled={disabled} onClick={() => onChange(undefined)} aria-label={`Remove attachment ${file.name}`}>
          ×
        </button>
      </div>
    );

  return (
    <>
      <input
        id={id}
        type="file"
        className="visually-hidden"
        disabled={disabled}
        onChange={(e) => {
          onChange(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className="chip chip-label">
        <Icon name="clip" size={16} /> Attach a photo or file
      </label>
    </>
  );
}
