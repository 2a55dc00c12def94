import { useState, type ReactNode } from 'react';
import { describeError } from '../api/http.ts';
import { Modal } from './Modal.tsx';
import { ErrorNote } from './Status.tsx';

/** Asks before something that cannot be undone; shows the failure if the action fails. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  message: string;
  /** More to know before confirming, after the message. */
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      <p>{message}</p>
      {children}
      {error && <ErrorNote error={error} />}
      <div className="actions">
        <button type="button" className="button button-quiet" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
