import { findPeople, isElsewhere } from '../../api/people.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { useChannel, useSession } from '../../session.tsx';
import { addressHere } from '../../addresses.ts';
import { FollowControls } from '../channel/FollowControls.tsx';

/** People found by an address or profile URL (looked up on their server when the hub federates), to open or follow. */
export function PeopleResults({ q }: { q: string }) {
  const channel = useChannel();
  const { session } = useSession();
  const people = useLoad(() => findPeople(q), [q]);
  if (people.status === 'loading' && !people.data) return <Loading label={`Looking for ${q}…`} />;
  if (people.status === 'error' && !people.data) return <ErrorNote error={`The search failed: ${people.error}`} onRetry={people.reload} />;
  const found = people.data ?? [];
  if (!found.length)
    return (
      <Empty title={`Nobody found at ${q}.`}>
        Check the address (<code>user@server</code>). People on other servers are found while this hub federates: see <Link to="/settings/federation">Settings → Federation</Link>.
      </Empty>
    );
  return (
    <ul className="list card" aria-label="People">
      {found.map((u) => (
        <li key={u.id} className="list-row person-result">
          <Link to={`/channel/${encodeURIComponent(u.screen_name)}`} className="person-link">
            <Avatar src={u.profile_image_url_profile_size || u.profile_image_url} name={u.name || u.screen_name} size={44} />
            <span className="list-main">
              <span className="person-name">{u.name || u.screen_name}</span>
              <span className="muted person-address">{isElsewhere(u) ? `@${u.screen_name}` : addressHere(session, u.screen_name)}</span>
            </span>
          </Link>
          {u.screen_name.toLowerCase() !== channel.nick.toLowerCase() && <FollowControls user={u} />}
        </li>
      ))}
    </ul>
  );
}
