import { useState, type FormEvent } from 'react';
import { login } from '../../api/session.ts';
import { useAction } from '../../hooks/useAction.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useSession } from '../../session.tsx';
import { AuthLayout } from './AuthLayout.tsx';

export function LoginPage() {
  const { refresh } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(login);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await action.run(name.trim(), password)) await refresh();
  };

  return (
    <AuthLayout title="Log in">
      <form onSubmit={submit} className="form">
        <label>
          Nickname or email
          <input value={name} onChange={(e) => setName(e.target.value)} required autoComplete="username" autoFocus />
        </label>
        <label>
          Password
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
        </label>
        {action.error && <ErrorNote error={action.error} />}
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          {action.busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </AuthLayout>
  );
}
