import { useEffect, useId, useState, type FormEvent } from 'react';
import { backupSettings, backUpNow, saveBackupSettings, type BackupSettings as Settings, type LastBackup } from '../../api/backups.ts';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotify } from '../../notices.tsx';

const PERIODS: { seconds: number; label: string }[] = [
  { seconds: 3600, label: 'Every hour' },
  { seconds: 6 * 3600, label: 'Every 6 hours' },
  { seconds: 86400, label: 'Every day' },
  { seconds: 7 * 86400, label: 'Every week' },
  { seconds: 0, label: 'Only when I click “Back up now”' },
];

type Kind = 'folder' | 's3';

interface Draft {
  kind: Kind;
  folder: string;
  bucket: string;
  every: number;
  keepDaily: string;
  keepWeekly: string;
  passphrase: string;
  endpoint: string;
  region: string;
  keyId: string;
  secret: string;
  password: string;
}

function draftOf(s: Settings): Draft {
  const s3 = s.target.startsWith('s3:');
  return { kind: s3 ? 's3' : 'folder', folder: s3 ? '' : s.target, bucket: s3 ? s.target : '', every: s.every_seconds, keepDaily: String(s.keep_daily), keepWeekly: String(s.keep_weekly), passphrase: '', endpoint: s.s3_endpoint, region: s.s3_region, keyId: s.s3_access_key_id, secret: '', password: '' };
}

const targetOf = (d: Draft) => (d.kind === 's3' ? d.bucket.trim() : d.folder.trim());

function size(bytes = 0): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

const when = (iso: string) => new Date(iso).toLocaleString();

function LastResult({ last }: { last: LastBackup }) {
  if (!last.ok) {
    return (
      <div className="error-note" role="alert">
        <span>
          The last backup failed ({when(last.at)}): {last.error}
        </span>
      </div>
    );
  }
  return (
    <p className="status-line status-on">
      <span className="status-dot" aria-hidden="true" />
      <span>
        Last backup {when(last.at)}: {size(last.bytes)}, {last.copiedFiles} new {last.copiedFiles === 1 ? 'file' : 'files'} copied in {last.seconds?.toFixed(1)} s <span className="muted">({last.id})</span>
      </span>
    </p>
  );
}

/** Where backups go, how often, how many are kept, their passphrase; Back up now and the last result. */
export function BackupSettings() {
  const ids = useId();
  const notify = useNotify();
  const loaded = useLoad(backupSettings, []);
  const [draft, setDraft] = useState<Draft>();
  const state = loaded.data;

  useEffect(() => {
    if (loaded.data && !draft) setDraft(draftOf(loaded.data));
  }, [loaded.data, draft]);

  // While a backup runs, its progress and then its outcome.
  const { reload } = loaded;
  useEffect(() => {
    if (!state?.running) return;
    const timer = setInterval(() => void reload(), 1000);
    return () => clearInterval(timer);
  }, [state?.running, reload]);

  const save = useAction(async (d: Draft) => {
    const saved = await saveBackupSettings({
      target: targetOf(d),
      every_seconds: String(d.every),
      keep_daily: d.keepDaily,
      keep_weekly: d.keepWeekly,
      passphrase: d.passphrase || undefined,
      s3_endpoint: d.kind === 's3' ? d.endpoint.trim() : undefined,
      s3_region: d.kind === 's3' ? d.region.trim() : undefined,
      s3_access_key_id: d.kind === 's3' ? d.keyId.trim() : undefined,
      s3_secret_access_key: d.kind === 's3' && d.secret ? d.secret : undefined,
      password: d.password || undefined,
    });
    loaded.setData(saved);
    setDraft(draftOf(saved));
    notify('Your backup settings were saved.', 'info');
  });
  const run = useAction(async () => loaded.setData(await backUpNow()));

  if (loaded.status === 'error' && !state) return <ErrorNote error={`The backup settings could not be loaded: ${loaded.error}`} onRetry={loaded.reload} />;
  if (!state || !draft) return <Loading label="Loading your backup settings…" />;

  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const target = targetOf(draft);
  const whereChanges = target !== state.target || draft.passphrase !== '' || (draft.kind === 's3' && (draft.endpoint.trim() !== state.s3_endpoint || draft.keyId.trim() !== state.s3_access_key_id || draft.secret !== ''));
  const needsPassphrase = draft.kind === 's3' && !state.passphrase_set && !draft.passphrase;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(draft);
  };
  const p = state.progress;

  return (
    <div className="backup-settings">
      {state.running ? (
        <p className="status-line" role="status">
          Backing up…{p && p.phase === 'files' ? ` ${p.files.done} of ${p.files.total} new files (${size(p.bytes.done)} of ${size(p.bytes.total)})` : ''}
        </p>
      ) : state.last ? (
        <LastResult last={state.last} />
      ) : (
        <p className="muted">{state.target ? 'No backup has been made yet.' : 'Backups are off: choose where they go, and Hearth makes them by itself.'}</p>
      )}
      {state.next && !state.running && <p className="muted">Next backup: {when(state.next)}</p>}
      <div className="actions actions-start">
        <button type="button" className="button" onClick={() => void run.run()} disabled={!state.target || state.running || run.busy}>
          {state.running ? 'Backing up…' : 'Back up now'}
        </button>
      </div>
      {run.error && <ErrorNote error={`The backup did not start: ${run.error}`} />}

      <form className="form backup-form" onSubmit={submit}>
        <fieldset className="choice-group">
          <legend>Back up to</legend>
          <label className="choice">
            <input type="radio" name={`${ids}-kind`} checked={draft.kind === 'folder'} onChange={() => set({ kind: 'folder' })} />
            <span>A folder: another disk, a NAS, a synced folder</span>
          </label>
          <label className="choice">
            <input type="radio" name={`${ids}-kind`} checked={draft.kind === 's3'} onChange={() => set({ kind: 's3' })} />
            <span>An S3-compatible bucket</span>
          </label>
        </fieldset>
        {draft.kind === 'folder' ? (
          <label>
            Folder
            <input value={draft.folder} onChange={(e) => set({ folder: e.target.value })} placeholder="/media/backup-disk/hearth" spellCheck={false} autoComplete="off" />
          </label>
        ) : (
          <>
            <label>
              Bucket
              <input value={draft.bucket} onChange={(e) => set({ bucket: e.target.value })} placeholder="s3://my-bucket/hearth" spellCheck={false} autoComplete="off" />
            </label>
            <label>
              Endpoint <span className="optional">(leave empty for Amazon S3)</span>
              <input value={draft.endpoint} onChange={(e) => set({ endpoint: e.target.value })} placeholder="https://s3.eu-central-003.backblazeb2.com" spellCheck={false} autoComplete="off" />
            </label>
            <label>
              Region <span className="optional">(optional)</span>
              <input value={draft.region} onChange={(e) => set({ region: e.target.value })} placeholder="us-east-1" spellCheck={false} autoComplete="off" />
            </label>
            <label>
              Access key ID
              <input value={draft.keyId} onChange={(e) => set({ keyId: e.target.value })} spellCheck={false} autoComplete="off" />
            </label>
            <label>
              Secret access key
              <input type="password" value={draft.secret} onChange={(e) => set({ secret: e.target.value })} placeholder={state.s3_secret_set ? 'Set; type a new one to change it' : ''} autoComplete="new-password" />
            </label>
          </>
        )}
        <label>
          How often
          <select value={draft.every} onChange={(e) => set({ every: Number(e.target.value) })}>
            {PERIODS.some((x) => x.seconds === draft.every) ? null : <option value={draft.every}>Every {Math.round(draft.every / 60)} minutes</option>}
            {PERIODS.map((x) => (
              <option key={x.seconds} value={x.seconds}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <div className="keep-fields">
          <label>
            Daily backups kept
            <input type="number" min={0} max={1000} value={draft.keepDaily} onChange={(e) => set({ keepDaily: e.target.value })} />
          </label>
          <label>
            Weekly backups kept
            <input type="number" min={0} max={1000} value={draft.keepWeekly} onChange={(e) => set({ keepWeekly: e.target.value })} />
          </label>
        </div>
        <p className="hint">Older backups are removed; the files they share with the kept ones stay.</p>
        <label>
          Passphrase {draft.kind === 'folder' && <span className="optional">(optional for a folder; needed for a synced folder)</span>}
          <input type="password" value={draft.passphrase} onChange={(e) => set({ passphrase: e.target.value })} placeholder={state.passphrase_set ? (state.passphrase_from_environment ? 'Set by HEARTH_BACKUP_PASSPHRASE' : 'Set; type a new one to change it') : 'Several words you will remember'} autoComplete="new-password" minLength={8} aria-describedby={`${ids}-pass-hint`} />
        </label>
        <p id={`${ids}-pass-hint`} className="hint">
          Backups are encrypted with it. Without it nobody can read them, not even you: write it down and keep it away from this computer.
        </p>
        {needsPassphrase && <p className="field-problem">Backups to a bucket leave this computer: they need a passphrase.</p>}
        {whereChanges && (
          <label>
            Your Hearth password <span className="optional">(to change where backups go, or their passphrase)</span>
            <input type="password" value={draft.password} onChange={(e) => set({ password: e.target.value })} autoComplete="current-password" required />
          </label>
        )}
        {save.error && <ErrorNote error={`Your backup settings were not saved: ${save.error}`} />}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={save.busy || needsPassphrase || !target}>
            {save.busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </div>
  );
}
