import { useState, type FormEvent } from 'react';
import { setup } from '../../api/session.ts';
import { useAction } from '../../hooks/useAction.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useSession } from '../../session.tsx';
import { NICK } from '../../addresses.ts';
import { AddressHint } from '../../components/AddressHint.tsx';
import { AuthLayout } from './AuthLayout.tsx';

/** First run: the account and the first channel. */
export function SetupPage() {
  const { refresh } = useSession();
  const [form, setForm] = useState({ name: '', nick: '', email: '', password: '', confirm: '' });
  const [problem, setProblem] = useState<string>();
  const action = useAction(setup);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const nick = form.nick.trim().toLowerCase();
    if (!NICK.test(nick)) return setProblem('The nickname must start with a letter and use only lowercase letters, digits, - and _ (2 to 32 characters).');
    if (form.password.length < 6) return setProblem('Choose a password of at least 6 characters.');
    if (form.password !== form.confirm) return setProblem('The two passwords are not the same.');
    setProblem(undefined);
    const ok = await action.run({ name: form.name.trim(), nick, email: form.email.trim(), password: form.password });
    if (ok) await refresh();
  };

  return (
    <AuthLayout title="Welcome to Hearth" intro={<p>Your own social hub, on this computer. Create your account and your first channel to begin.</p>}>
      <form onSubmit={submit} className="form">
        <label>
          Your name
          <input value={form.name} onChange={set('name')} required autoComplete="name" autoFocus />
        </label>
        <label>
          Nickname
          <input value={form.nick} onChange={set('nick')} required autoComplete="username" aria-describedby="nick-hint" />
        </label>
        <AddressHint id="nick-hint" nick={form.nick} whose="Your" />
        <label>
          <span>
            Email <span className="optional">(optional)</span>
          </span>
          <input type="email" value={form.email} onChange={set('email')} autoComplete="email" />
        </label>
        <label>
          Password
          <input type="password" value={form.password} onChange={set('password')} required minLength={6} autoComplete="new-password" />
        </label>
        <label>
          Password again
          <input type="password" value={form.confirm} onChange={set('confirm')} required autoComplete="new-password" />
        </label>
        {(problem || action.error) && <ErrorNote error={(problem ?? action.error)!} />}
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          {action.busy ? 'Creating your hub…' : 'Create my hub'}
        </button>
      </form>
    </AuthLayout>
  );
}
