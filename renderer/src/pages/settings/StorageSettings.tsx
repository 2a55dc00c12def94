import { useId, useState } from 'react';
import { cleanOldNotifications, cleanRemoteMedia, compactDatabase, storageReport, type RowKind, type StorageReport } from '../../api/storage.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotify } from '../../notices.tsx';
import { formatSize } from '../../uploadLimit.ts';

const KIND_NAMES: Record<RowKind, string> = {
  posts: 'Posts',
  comments: 'Comments',
  likes: 'Likes and other reactions',
  otherItems: 'Other activities',
  search: 'Search index',
  notifications: 'Notifications',
  photos: 'Photos (their records)',
  files: 'Files (their records)',
  people: 'Connections and people',
  messages: 'Private messages',
  federation: 'Federation (deliveries and keys)',
  other: 'Settings, sessions and the rest',
};

const count = (n: number | undefined) => (n ?? 0).toLocaleString();
const share = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)}%` : '–');
const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const duration = (seconds: number) => (seconds < 90 ? `about ${seconds} s` : `about ${Math.round(seconds / 60)} minutes`);

function Summary({ report }: { report: StorageReport }) {
  const { database, store, remoteMedia } = report;
  return (
    <ul className="storage-summary">
      <li>
        <strong>{formatSize(database.bytes)}</strong> in the database
        {database.freeBytes > 0 && <>, of which {formatSize(database.freeBytes)} is free space</>}
      </li>
      <li>
        <strong>{formatSize(store.photos.bytes)}</strong> of photos ({plural(store.photos.count, 'photo', 'photos')}, with their smaller sizes)
      </li>
      <li>
        <strong>{formatSize(store.files.bytes)}</strong> of files ({plural(store.files.count, 'file', 'files')})
      </li>
      <li>
        <strong>{formatSize(remoteMedia.bytes)}</strong> of cached pictures of people on other servers{remoteMedia.estimated ? ' (estimated)' : ''}
      </li>
    </ul>
  );
}

function ByKind({ report }: { report: StorageReport }) {
  const whole = report.database.bytes;
  return (
    <div className="storage-table-wrap">
      <table className="storage-table">
        <caption>
          The database by kind
          {report.database.measured ? '' : ' (estimated from the number of rows)'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Rows</th>
            <th scope="col">Size</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {report.kinds.map((k) => (
            <tr key={k.kind}>
              <th scope="row">{KIND_NAMES[k.kind] ?? k.kind}</th>
              <td>{k.rows === null ? '–' : count(k.rows)}</td>
              <td>{formatSize(k.bytes)}</td>
              <td>{share(k.bytes, whole)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ByChannel({ report }: { report: StorageReport }) {
  const id = useId();
  return (
    <div className="storage-by-channel">
      <h3 id={`${id}-title`}>By channel</h3>
      <p className="muted">Each channel holds its threads, with the comments and likes others left on them. Its part of the database is estimated from its rows.</p>
      {/* Wider than a phone: it scrolls sideways, and the keyboard can scroll it too. */}
      <div className="storage-table-wrap" tabIndex={0} role="group" aria-labelledby={`${id}-title`}>
        <table className="storage-table" aria-labelledby={`${id}-title`}>
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Posts</th>
              <th scope="col">Comments</th>
              <th scope="col">Likes</th>
              <th scope="col">Notifications</th>
              <th scope="col">Photos</th>
              <th scope="col">Files</th>
              <th scope="col">Database</th>
            </tr>
          </thead>
          <tbody>
            {report.channels.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name || c.nick}</th>
                <td>{count(c.rows.posts)}</td>
                <td>{count(c.rows.comments)}</td>
                <td>{count(c.rows.likes)}</td>
                <td>{count(c.rows.notifications)}</td>
                <td>
                  {count(c.photos.count)} · {formatSize(c.photos.bytes)}
                </td>
                <td>
                  {count(c.files.count)} · {formatSize(c.files.bytes)}
                </td>
                <td>{formatSize(c.dbBytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

type Asking = 'notifications' | 'remote' | 'compact';

/**
 * Settings → Storage (the hub owner's): how much room the database and the stored photos and
 * files take, by kind and by channel; removing old seen notifications and the cache of remote
 * pictures; compacting the database when the owner asks.
 */
export function StorageSettings() {
  const ids = useId();
  const notify = useNotify();
  const loaded = useLoad(storageReport, []);
  const [days, setDays] = useState('90');
  const [asking, setAsking] = useState<Asking>();

  if (loaded.status === 'error' && !loaded.data) return <ErrorNote error={`The storage figures could not be loaded: ${loaded.error}`} onRetry={loaded.reload} />;
  const report = loaded.data;
  if (!report) return <Loading label="Counting what your hub stores…" />;
  const n = Number(days);
  const daysOk = /^\d{1,4}$/.test(days) && n >= 1 && n <= 3650;
  const seen = report.channels.reduce((a, c) => a + c.seenNotifications, 0);

  return (
    <div className="storage-settings">
      <Summary report={report} />
      <p className="muted">Counted at {new Date(report.countedAt).toLocaleTimeString()}; the figures are counted again after a clean-up, or five minutes later.</p>
      <ByKind report={report} />
      <ByChannel report={report} />

      <div className="storage-action">
        <h3>Old notifications</h3>
        <p className="muted">{plural(seen, 'notification has', 'notifications have')} been seen. Notifications you have not seen yet always stay.</p>
        <div className="storage-days">
          <label htmlFor={`${ids}-days`}>Remove seen notifications older than</label>
          <input id={`${ids}-days`} type="number" inputMode="numeric" min={1} max={3650} value={days} onChange={(e) => setDays(e.target.value)} aria-describedby={`${ids}-days-unit`} />
          <span id={`${ids}-days-unit`}>days</span>
          <button type="button" className="button" onClick={() => setAsking('notifications')} disabled={!daysOk}>
            Remove…
          </button>
        </div>
      </div>

      <div className="storage-action">
        <h3>Pictures of people on other servers</h3>
        <p className="muted">
          Hearth keeps copies of the avatars of people it meets through federation ({plural(report.remoteMedia.files, 'file', 'files')}, {formatSize(report.remoteMedia.bytes)}). Emptied, they show a
          default picture until Hearth sees them again and fetches theirs anew.
        </p>
        <div className="actions actions-start">
          <button type="button" className="button" onClick={() => setAsking('remote')} disabled={report.remoteMedia.files === 0}>
            Empty the cache…
          </button>
        </div>
      </div>

      <div className="storage-action">
        <h3>Compact the database</h3>
        <p className="muted">
          Free space in the database: {formatSize(report.vacuum.freeBytes)}, which compacting gives back to your disk
          {report.vacuum.unusedBytes ? <>, with part of the {formatSize(report.vacuum.unusedBytes)} left unused inside its pages</> : null}. It rewrites the whole database: that takes{' '}
          {duration(report.vacuum.seconds)}, and meanwhile the hub answers nothing else — this window, your apps and other devices wait.
        </p>
        <div className="actions actions-start">
          <button type="button" className="button" onClick={() => setAsking('compact')}>
            Compact the database…
          </button>
        </div>
      </div>

      {asking === 'notifications' && (
        <ConfirmDialog
          title="Remove old notifications?"
          message={`Every channel's notifications that you have seen and that are older than ${plural(n, 'day', 'days')} are removed for good.`}
          confirmLabel="Remove them"
          onConfirm={async () => {
            const { removed } = await cleanOldNotifications(n);
            notify(removed ? `Removed ${plural(removed, 'old notification', 'old notifications')}.` : 'There were no seen notifications that old.', 'info');
            await loaded.reload();
          }}
          onClose={() => setAsking(undefined)}
        />
      )}
      {asking === 'remote' && (
        <ConfirmDialog
          title="Empty the cache of remote pictures?"
          message="People on other servers show a default picture until Hearth fetches theirs again."
          confirmLabel="Empty the cache"
          onConfirm={async () => {
            const freed = await cleanRemoteMedia();
            notify(`Freed ${formatSize(freed.bytes)} (${plural(freed.files, 'file', 'files')}).`, 'info');
            await loaded.reload();
          }}
          onClose={() => setAsking(undefined)}
        />
      )}
      {asking === 'compact' && (
        <ConfirmDialog
          title="Compact the database now?"
          message={`This takes ${duration(
            report.vacuum.seconds
          )}. Until it ends the hub answers nothing else: this window, your apps and your other devices wait. It does not run while a backup does.`}
          confirmLabel="Compact now"
          onConfirm={async () => {
            const done = await compactDatabase();
            notify(`The database was compacted in ${(done.ms / 1000).toFixed(1)} s: ${formatSize(done.freedBytes)} freed.`, 'info');
            await loaded.reload();
          }}
          onClose={() => setAsking(undefined)}
        />
      )}
    </div>
  );
}
