import type { Status } from '../../api/types.ts';
import { Icon } from '../../components/Icon.tsx';
import { Time } from '../../components/Time.tsx';
import { Link } from '../../router.tsx';
import { authorOf } from './threads.ts';

/** The line above a shared post: who shared it, and when. */
export function SharedBy({ share, mine }: { share: Status; mine: boolean }) {
  const sharer = authorOf(share);
  return (
    <p className="shared-by muted">
      <Icon name="share" size={14} />{' '}
      {mine ? (
        'You shared'
      ) : (
        <>
          <Link to={`/channel/${encodeURIComponent(sharer.screen_name)}`}>{sharer.name || sharer.screen_name}</Link> shared
        </>
      )}{' '}
      · <Time value={share.created_at} />
    </p>
  );
}
