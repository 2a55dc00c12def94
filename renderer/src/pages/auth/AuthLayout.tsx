import type { ReactNode } from 'react';

/** The centred card used before anyone is logged in. */
export function AuthLayout({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-card">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark" />
          Hearth
        </div>
        <h1>{title}</h1>
        {intro && <div className="auth-intro">{intro}</div>}
        {children}
      </div>
    </main>
  );
}
