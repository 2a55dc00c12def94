import { useId } from 'react';
import type { PostFormat } from './preview.ts';
import { FORMATS } from './writingFormat.ts';

/** Picks how a text is written: BBCode, Markdown or plain text. */
export function FormatSelect({ value, onChange, disabled, className = '' }: { value: PostFormat; onChange: (format: PostFormat) => void; disabled?: boolean; className?: string }) {
  const id = useId();
  return (
    <span className={`format-select ${className}`}>
      <label htmlFor={id}>Format</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as PostFormat)} disabled={disabled}>
        {FORMATS.map((f) => (
          <option key={f.value} value={f.value}>
            {f.label}
          </option>
        ))}
      </select>
    </span>
  );
}
