import { Fragment, useState } from 'react';
import { describeError } from '../../api/http.ts';
import { react, type Reaction } from '../../api/statuses.ts';
import type { Status, User } from '../../api/types.ts';
import { Icon } from '../../components/Icon.tsx';
import { useNotify } from '../../notices.tsx';
import { Link } from '../../router.tsx';
import { useChannel } from '../../session.tsx';
import { reactedBy } from './threads.ts';

function names(users: User[]): string {
  const list = users.map((u) => u.name || u.screen_name);
  return list.length <= 3 ? list.join(', ') : `${list.slice(0, 3).join(', ')} and ${list.length - 3} more`;
}

/** "Alice, Bob and 2 more", each name leading to the channel's page. */
function People({ users }: { users: User[] }) {
  const shown = users.slice(0, 3);
  return (
    <>
      {shown.map((u, i) => (
        <Fragment key={u.screen_name}>
          {i > 0 && ', '}
          <Link to={`/channel/${encodeURIComponent(u.screen_name)}`}>{u.name || u.screen_name}</Link>
        </Fragment>
      ))}
      {users.length > shown.length && ` and ${users.length - shown.length} more`}
    </>
  );
}

/** What clicking does, then who did it already: "Like", "Undo your like · Liked by Alice, Bob". */
function tooltip(verb: Reaction, mine: boolean, users: User[], label: string): string {
  const action = mine ? `Undo your ${verb}` : verb === 'like' ? 'Like' : 'Dislike';
  return users.length ? `${action} · ${label} by ${names(users)}` : action;
}

/** Like and dislike, with who did them; `onChanged` reloads the thread afterwards. */
export function Reactions({ status, onChanged }: { status: Status; onChanged: () => Promise<void> }) {
  const channel = useChannel();
  const notify = useNotify();
  const [busy, setBusy] = useState<Reaction>();
  const likes = status.friendica_activities?.like ?? [];
  const dislikes = status.friendica_activities?.dislike ?? [];

  const toggle = async (verb: Reaction, mine: boolean) => {
    if (busy) return;
    setBusy(verb);
    try {
      await react(status.id, verb, mine);
      await onChanged();
    } catch (err) {
      notify(`Your ${verb} could not be saved: ${describeError(err)}`);
    } finally {
      setBusy(undefined);
    }
  };

  const button = (verb: Reaction, users: User[], label: string) => {
    const mine = reactedBy(users, channel.nick);
    return (
      <button
        type="button"
        className={`reaction${mine ? ' reaction-on' : ''}`}
        aria-pressed={mine}
        // Not disabled: that would drop the keyboard focus to the page while the like is saved.
        aria-disabled={busy !== undefined}
        onClick={() => toggle(verb, mine)}
        title={tooltip(verb, mine, users, label)}
      >
        <Icon name={verb} size={16} />
        <span>{mine ? (verb === 'like' ? 'Liked' : 'Disliked') : verb === 'like' ? 'Like' : 'Dislike'}</span>
        {users.length > 0 && <span className="reaction-count">{users.length}</span>}
      </button>
    );
  };

  return (
    <div className="reactions">
      {button('like', likes, 'Liked')}
      {button('dislike', dislikes, 'Disliked')}
      {(likes.length > 0 || dislikes.length > 0) && (
        <span className="reaction-who muted">
          {likes.length > 0 && (
            <span>
              Liked by <People users={likes} />
            </span>
          )}
          {likes.length > 0 && dislikes.length > 0 && ' · '}
          {dislikes.length > 0 && (
            <span>
              Disliked by <People users={dislikes} />
            </span>
          )}
        </span>
      )}
    </div>
  );
}
