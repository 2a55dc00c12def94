import { useState } from 'react';

/** A labelled value (an address) with a button that copies it. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="copy-field">
      <span className="copy-label">{label}</span>
      <code>{value}</code>
      <button type="button" className="button button-quiet button-small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        {state === 'copied' ? 'Copied' : 'Copy'}
      </button>
      {state === 'failed' && <span className="field-problem">Copying was not allowed; select the text instead.</span>}
    </div>
  );
}
