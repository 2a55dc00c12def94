import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { importStatus, startImport, stopImport, type ImportProgress, type ImportStatus, type ImportSummary } from '../../api/channelImport.ts';
import { describeError } from '../../api/http.ts';
import { switchChannel } from '../../api/session.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { Link, navigate } from '../../router.tsx';
import { useSession } from '../../session.tsx';

const POLL_MS = 600;

const PHASES: Record<ImportProgress['phase'], string> = {
  connecting: 'Connecting to the hub…',
  profile: 'Profile and photo…',
  connections: 'Connections and privacy groups…',
  files: 'Files and photos',
  items: 'Posts, comments and likes',
  done: 'Finishing…',
};

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function megabytes(n: number): string {
  return `${(n / 1048576).toFixed(1)} MB`;
}

/** One bar for the whole move: the first steps, then files by bytes, then posts. */
function overall(p: ImportProgress): number {
  const part = (c: { done: number; total: number }) => (c.total ? Math.min(1, c.done / c.total) : 0);
  switch (p.phase) {
    case 'connecting':
      return 0;
    case 'profile':
      return 0.02;
    case 'connections':
      return 0.04;
    case 'files':
      return 0.05 + 0.5 * (p.bytes.total ? part(p.bytes) : part(p.files));
    case 'items':
      return 0.55 + 0.45 * part(p.items);
    case 'done':
      return 1;
  }
}

function Running({ status, onStop, stopping }: { status: ImportStatus; onStop: () => void; stopping: boolean }) {
  const p = status.progress;
  return (
    <section className="card import-running" aria-labelledby="import-running-title">
      <h2 id="import-running-title">
        Moving {status.user} from {status.from}
      </h2>
      <ProgressBar value={p ? overall(p) : 0} label="Moving the channel" />
      <p className="import-phase">{p ? PHASES[p.phase] : PHASES.connecting}</p>
      {p && (p.phase === 'files' || p.phase === 'items' || p.phase === 'done') && (
        <ul className="import-counts">
          <li>
            Files and photos: {p.files.done} of {p.files.total} ({megabytes(p.bytes.done)} of {megabytes(p.bytes.total)})
          </li>
          <li>
            Posts, comments and likes: {p.items.done} of {p.items.total}
          </li>
        </ul>
      )}
      <div className="actions">
        <button type="button" className="button button-quiet" onClick={onStop} disabled={stopping}>
          {stopping ? 'Stopping…' : 'Stop'}
        </button>
      </div>
      <p className="hint">You can stop at any time: moving it again later goes on where it stopped, and nothing arrives twice.</p>
    </section>
  );
}

function Summary({ summary, onSwitch, switching }: { summary: ImportSummary; onSwitch: (nick: string) => void; switching: boolean }) {
  const i = summary.imported;
  const title =
    summary.state === 'done'
      ? `${summary.channel?.name ?? summary.source.nick} moved here`
      : summary.state === 'interrupted'
        ? 'The move was stopped'
        : 'The channel could not be moved';
  return (
    <section className={`card import-summary import-${summary.state}`} aria-labelledby="import-summary-title">
      <h2 id="import-summary-title">{title}</h2>
      {summary.error && <ErrorNote error={summary.error} />}
      {summary.channel && (
        <p>
          From {summary.source.url} as <strong>{summary.channel.nick}</strong> ({summary.channel.address}).
        </p>
      )}
      {summary.channel && (
        <ul className="import-counts" aria-label="Imported">
          <li>{i.items} posts, comments and likes</li>
          <li>
            {count(i.photos, 'photo')} and {count(i.files, 'file')} ({megabytes(i.bytes)})
          </li>
          <li>{count(i.connections, 'connection')}</li>
          <li>
            {count(i.groups, 'privacy group')} with {count(i.members, 'member')}
          </li>
          {i.profilePhoto && <li>the profile photo</li>}
        </ul>
      )}
      {summary.skipped.length > 0 && (
        <>
          <h3>Left out</h3>
          <ul className="import-skipped" aria-label="Left out">
            {summary.skipped.map((g) => (
              <li key={g.reason}>
                {g.count} × {g.reason}
                {g.examples.length > 0 && <span className="muted"> — e.g. {g.examples.slice(0, 3).join(', ')}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {/* The page says above that keys are not moved. */}
      {summary.notes.filter((n) => !n.startsWith('Keys are not moved')).map((n) => (
        <p key={n} className="hint import-note">
          {n}
        </p>
      ))}
      {summary.state === 'done' && summary.channel && (
        <div className="actions">
          <button type="button" className="button" onClick={() => onSwitch(summary.channel!.nick)} disabled={switching}>
            Switch to {summary.channel.name}
          </button>
        </div>
      )}
    </section>
  );
}

/** "Move a channel here": imports a channel from a Hubzilla or another Hearth, with its progress and a summary. */
export function ImportPage() {
  const ids = useId();
  const { session, refresh } = useSession();
  const [status, setStatus] = useState<ImportStatus>();
  const [loadError, setLoadError] = useState<string>();
  const [from, setFrom] = useState('');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');

  const load = useCallback(async () => {
    try {
      setStatus(await importStatus());
      setLoadError(undefined);
    } catch (err) {
      setLoadError(describeError(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const running = status?.running ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, load]);

  // A channel that arrived belongs in the channel menu.
  const finished = status?.summary?.channel?.nick;
  useEffect(() => {
    if (!running && finished) void refresh();
  }, [running, finished, refresh]);

  const start = useAction(async () => {
    setStatus(await startImport(from.trim(), user.trim(), password));
    setPassword('');
  });
  const stop = useAction(async () => setStatus(await stopImport()));
  const switchTo = useAction(async (nick: string) => {
    await switchChannel(nick, session.csrf ?? '');
    navigate('/');
    await refresh();
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!from.trim() || !user.trim() || !password) return start.setError('Fill in the hub\'s address, the nickname and the password.');
    void start.run();
  };

  return (
    <div className="page import-page">
      <h1>Move a channel here</h1>
      <p className="muted">
        Bring a channel over from a Hubzilla hub or another Hearth: its profile, connections and their permissions, privacy groups, posts with their comments
        and likes, photos and files. Who could see what stays the same. The channel there is left as it is.
      </p>
      <p className="hint import-keys">
        Keys are not moved: a hub never hands out a channel's private key, so the channel here gets an identity of its own (a new key and address). Your
        connections see it as a new channel.
      </p>
      {loadError && <ErrorNote error={`Could not ask the hub how the move goes: ${loadError}`} onRetry={() => void load()} />}
      {!status && !loadError && <Loading label="Loading…" />}
      {status?.running && <Running status={status} onStop={() => void stop.run()} stopping={stop.busy} />}
      {stop.error && <ErrorNote error={`Could not stop: ${stop.error}`} />}
      {status && !status.running && status.summary && <Summary summary={status.summary} onSwitch={(nick) => void switchTo.run(nick)} switching={switchTo.busy} />}
      {switchTo.error && <ErrorNote error={`Could not switch: ${switchTo.error}`} />}
      {status && !status.running && (
        <form className="form card import-form" onSubmit={submit} aria-labelledby={`${ids}-title`}>
          <h2 id={`${ids}-title`}>{status.summary ? 'Move a channel' : 'Where is the channel now?'}</h2>
          <label>
            Hub address
            <input value={from} onChange={(e) => setFrom(e.target.value)} placeholder="https://hub.example.org" autoComplete="url" inputMode="url" required />
          </label>
          <label>
            Nickname there
            <input value={user} onChange={(e) => setUser(e.target.value)} autoComplete="username" autoCapitalize="none" required />
          </label>
          <label>
            Password there
            <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
          </label>
          <p className="hint">The password is used for this move only and is not kept.</p>
          {/^\s*http:\/\//i.test(from) && (
            <p className="hint import-insecure" role="alert">
              This address is not https: the password goes to that hub unencrypted, readable by anyone on the way. Use https:// if the hub has it.
            </p>
          )}
          {start.error && <ErrorNote error={`The move did not start: ${start.error}`} />}
          <div className="actions">
            <Link to="/channels" className="button button-quiet">
              Back to your channels
            </Link>
            <button type="submit" className="button" disabled={start.busy}>
              {start.busy ? 'Starting…' : 'Move the channel here'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
