import { useState } from 'react';
import { Empty } from '../../components/Status.tsx';
import { Link } from '../../router.tsx';

/**
 * Another channel's photo or album page. The photo APIs answer for the logged-in channel's own
 * photos, so this shows the image itself (when it may be seen) and leads to the channel.
 */
export function PhotoOfChannel({ nick, id }: { nick: string; id?: string }) {
  const [failed, setFailed] = useState(false);
  const channel = `/channel/${encodeURIComponent(nick)}`;
  return (
    <div className="page">
      <p className="back">
        <Link to={channel}>← {nick}</Link>
      </p>
      <h1>{id ? `A photo of ${nick}` : `Photos of ${nick}`}</h1>
      {id && !failed && (
        <figure className="card photo-of-channel">
          <img src={`/photo/${encodeURIComponent(id)}-1`} alt={`A photo of ${nick}`} onError={() => setFailed(true)} />
        </figure>
      )}
      {(!id || failed) && (
        <Empty title={id ? 'This photo was deleted, or you cannot see it.' : 'The albums of other channels are not shown here.'}>
          <Link to={channel}>Go to the channel of {nick}</Link>
        </Empty>
      )}
    </div>
  );
}
