import { useState, type FormEvent } from 'react';
import { createChannel } from '../../api/session.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useNotify } from '../../notices.tsx';
import { Link, navigate } from '../../router.tsx';
import { useSession } from '../../session.tsx';
import { NICK } from '../../addresses.ts';
import { AddressHint } from '../../components/AddressHint.tsx';

/** A nickname suggested by a display name: "Our family" → "our-family". */
function suggestNick(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, 32);
}

/** Another channel on the account (a family channel, a project): nickname and name; then it is the current channel. */
export function NewChannelPage() {
  const { session, refresh } = useSession();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [nick, setNick] = useState('');
  const [nickEdited, setNickEdited] = useState(false);
  const [problem, setProblem] = useState<string>();
  const create = useAction(async (n: string, displayName: string) => {
    await createChannel(n, displayName, session.csrf ?? '');
    navigate('/');
    await refresh();
    notify(`You are now ${displayName || n} (${n}).`, 'info');
  });

  const shownNick = nickEdited ? nick : suggestNick(name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = shownNick.trim().toLowerCase();
    if (!NICK.test(n)) return setProblem('The nickname must start with a letter and use only lowercase letters, digits, - and _ (2 to 32 characters).');
    if ((session.channels ?? []).some((c) => c.nick === n)) return setProblem(`You already have a channel called ${n}.`);
    setProblem(undefined);
    void create.run(n, name.trim());
  };

  return (
    <div className="page">
      <p className="back">
        <Link to="/channels">← Your channels</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>New channel</h1>
          <p className="muted">A channel has its own posts, photos, files, connections and groups. All your channels share your account and password.</p>
        </div>
      </div>
      <form className="card form narrow-form" onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={190} placeholder="e.g. Our family" autoFocus />
        </label>
        <label>
          Nickname
          <input
            value={shownNick}
            onChange={(e) => {
              setNickEdited(true);
              setNick(e.target.value);
            }}
            required
            maxLength={32}
            autoCapitalize="none"
            spellCheck={false}
            aria-describedby="new-nick-hint"
          />
        </label>
        <AddressHint id="new-nick-hint" nick={shownNick} whose="Its" />
        {(problem || create.error) && <ErrorNote error={`The channel was not created: ${problem ?? create.error}`} />}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create channel'}
          </button>
        </div>
      </form>
    </div>
  );
}
