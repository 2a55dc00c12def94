import { useState } from 'react';
import { describeError } from '../../api/http.ts';
import { share } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { Icon } from '../../components/Icon.tsx';
import { useNotify } from '../../notices.tsx';

/**
 * Share (boost) a public post with the channel's followers, or undo the share. Private posts
 * cannot be shared, so they get no button.
 */
export function ShareButton({ status, onChanged }: { status: Status; onChanged: () => Promise<void> }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (status.friendica_private) return null;
  const mine = Boolean(status.retweeted);
  const count = status.retweet_count ?? 0;

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await share(status.id, mine);
      await onChanged();
    } catch (err) {
      notify(`Your share could not be ${mine ? 'withdrawn' : 'saved'}: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className={`reaction${mine ? ' reaction-on' : ''}`}
      aria-pressed={mine}
      // Not disabled: that would drop the keyboard focus to the page while the share is saved.
      aria-disabled={busy}
      onClick={toggle}
      title={mine ? 'Undo your share' : 'Share with your followers'}
    >
      <Icon name="share" size={16} />
      <span>{mine ? 'Shared' : 'Share'}</span>
      {count > 0 && <span className="reaction-count">{count}</span>}
    </button>
  );
}
