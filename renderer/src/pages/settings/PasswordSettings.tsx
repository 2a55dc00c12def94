import { useState, type FormEvent } from 'react';
import { changePassword } from '../../api/password.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useNotify } from '../../notices.tsx';

const MIN_LENGTH = 6;

/** Changes the account's password; other browsers are logged out, apps too when asked. */
export function PasswordSettings() {
  const notify = useNotify();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [revokeOAuth, setRevokeOAuth] = useState(false);
  const mismatch = confirm !== '' && confirm !== password;

  const save = useAction(async () => {
    const result = await changePassword(current, password, confirm, revokeOAuth);
    setCurrent('');
    setPassword('');
    setConfirm('');
    setRevokeOAuth(false);
    const others = result.sessions_ended === 1 ? '1 other browser was' : `${result.sessions_ended} other browsers were`;
    const apps = revokeOAuth ? ` Apps signed out: ${result.tokens_revoked}.` : '';
    notify(`Your password was changed. ${others} logged out.${apps}`, 'info');
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mismatch) return;
    void save.run();
  };

  return (
    <form className="form password-form" onSubmit={submit}>
      <label>
        Current password
        <input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} required />
      </label>
      <label>
        New password
        <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} minLength={MIN_LENGTH} required />
      </label>
      <label>
        New password again
        <input type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} minLength={MIN_LENGTH} required aria-invalid={mismatch} />
      </label>
      {mismatch && <p className="field-problem">The two new passwords differ.</p>}
      <label className="choice">
        <input type="checkbox" checked={revokeOAuth} onChange={(e) => setRevokeOAuth(e.target.checked)} />
        <span>Also sign out apps (OAuth)</span>
      </label>
      <p className="muted">Other browsers logged in to your hub are logged out; this one stays logged in.</p>
      {save.error && <ErrorNote error={`Your password was not changed: ${save.error}`} />}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={save.busy || mismatch}>
          {save.busy ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
