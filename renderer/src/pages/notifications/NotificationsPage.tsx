import { useState } from 'react';
import { connectionsPage, isRequest } from '../../api/connections.ts';
import { describeError } from '../../api/http.ts';
import { isSeen } from '../../api/notifications.ts';
import type { Connection, Notification } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { Time } from '../../components/Time.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotifications } from '../../notifications.tsx';
import { navigate } from '../../router.tsx';
import { RequestAnswer } from '../connections/RequestAnswer.tsx';
import { actorsOf, groupNotifications, groupText, type NotificationGroup } from './grouping.ts';

/** Connections looked at for each name that asked to connect (namesakes included). */
const INTRO_MATCHES = 50;

const isIntro = (n: Notification) => n.otype === 'intro' || n.type === 1 || n.type === 2;

/** Where a notification leads: its post's conversation, the message, or the connection for introductions. */
function destination(n: Notification, connection?: Connection): string | undefined {
  if (n.otype === 'mail' && n.link) return new URL(n.link, window.location.origin).pathname;
  const item = n.parent || n.iid;
  if (item) return `/item/${item}`;
  if (isIntro(n)) return connection ? `/connections/${encodeURIComponent(connection.abook_id)}` : '/connections';
  return undefined;
}

export function NotificationsPage() {
  const { items, unseen, error, refresh, hasOlder, loadOlder, open, markAllSeen } = useNotifications();
  const older = useAction(loadOlder);
  const [opening, setOpening] = useState<number>();
  const [openError, setOpenError] = useState<string>();
  const all = useAction(markAllSeen);
  // Introductions are answered right here: the pending connection of the person who asked.
  // Each is found by the name of who asked (the hub searches; the channel's connections are not all downloaded).
  const introNames = [...new Set((items ?? []).filter(isIntro).map((n) => n.name.slice(0, 200)).filter(Boolean))].sort();
  const connections = useLoad(async () => (await Promise.all(introNames.map((q) => connectionsPage({ q, records: INTRO_MATCHES })))).flatMap((p) => p.list), [introNames.join('\n')]);
  const connectionOf = (n: Notification) => (isIntro(n) ? connections.data?.find((c) => c.xchan_url === n.url) : undefined);

  const onOpen = async (group: NotificationGroup) => {
    const [n, ...others] = group.members as [Notification, ...Notification[]];
    setOpening(n.id);
    setOpenError(undefined);
    try {
      const status = await open(n, others);
      const to = destination(n, connectionOf(n)) ?? (status ? `/item/${status.id}` : undefined);
      if (to) navigate(to);
    } catch (err) {
      setOpenError(`The notification could not be opened: ${describeError(err)}`);
    } finally {
      setOpening(undefined);
    }
  };

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Notifications</h1>
          {items && !error && <p className="muted">{unseen ? `${unseen} unseen` : 'All caught up'}</p>}
        </div>
        <div className="page-tools">
          <button type="button" className="button button-quiet" onClick={() => void refresh()}>
            Refresh
          </button>
          <button type="button" className="button button-primary" onClick={() => void all.run()} disabled={!unseen || all.busy}>
            {all.busy ? 'Marking…' : 'Mark all seen'}
          </button>
        </div>
      </div>
      {all.error && <ErrorNote error={all.error} />}
      {openError && <ErrorNote error={openError} />}
      {error && <ErrorNote error={`Notifications could not be loaded: ${error}`} onRetry={() => void refresh()} />}
      {!items && !error && <Loading label="Loading notifications…" />}
      {items && items.length === 0 && <Empty title="No notifications yet.">When someone comments on, likes or mentions your posts, or connects with you, it shows up here.</Empty>}
      {items && items.length > 0 && (
        <ul className="list card notifications" aria-label="Notifications">
          {groupNotifications(items).map((group) => {
            const n = group.members[0]!;
            const seen = group.members.every(isSeen);
            const connection = connectionOf(n);
            const request = connection && n.type === 1 && isRequest(connection) ? connection : undefined;
            const actors = actorsOf(group);
            return (
              <li key={group.key} className={`notification-item${seen ? '' : ' notification-unseen'}`}>
                <button type="button" className="list-row notification" onClick={() => void onOpen(group)} disabled={opening === n.id} data-seen={seen ? 'true' : 'false'}>
                  <span className={`notification-avatars${actors.length > 1 ? ' notification-avatars-many' : ''}`} aria-hidden="true">
                    {actors.slice(0, 2).map((a) => (
                      <Avatar key={a.id} src={a.photo} name={a.name} size={actors.length > 1 ? 28 : 40} />
                    ))}
                  </span>
                  <span className="list-main">
                    <span className="notification-text">{groupText(group)}</span>
                    {n.post_excerpt && <span className="notification-post">{n.post_excerpt}</span>}
                    <span className="muted">
                      <Time value={n.timestamp !== undefined && /^\d+$/.test(String(n.timestamp)) ? Number(n.timestamp) : n.date} />
                    </span>
                  </span>
                  {!seen && <span className="badge">New</span>}
                </button>
                {request && (
                  <RequestAnswer
                    connection={request}
                    onAnswered={async () => {
                      if (!seen) await open(n);
                      // An accepted request's notification tells of the follow now.
                      await Promise.all([connections.reload(), refresh()]);
                    }}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
      {items && items.length > 0 && hasOlder && (
        <div className="load-more">
          <button type="button" className="button button-quiet" onClick={() => void older.run()} disabled={older.busy}>
            {older.busy ? 'Loading…' : 'Show older notifications'}
          </button>
        </div>
      )}
      {older.error && <ErrorNote error={`Older notifications could not be loaded: ${older.error}`} onRetry={() => void older.run()} />}
    </div>
  );
}
