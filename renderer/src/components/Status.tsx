import type { ReactNode } from 'react';

/** Loading, error and empty states, worded for people. */

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorNote({ error, onRetry }: { error: string; onRetry?: () => void }) {
  return (
    <div className="error-note" role="alert">
      <span>{error}</span>
      {onRetry && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** `heading`: the title is the page's heading (a page that has nothing else to show). */
export function Empty({ title, heading, children }: { title: string; heading?: boolean; children?: ReactNode }) {
  return (
    <div className="empty">
      {heading ? <h1 className="empty-title">{title}</h1> : <p className="empty-title">{title}</p>}
      {children && <div className="empty-body">{children}</div>}
    </div>
  );
}
