import { findPeople, isElsewhere } from '../../api/people.ts';
import type { User } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { highlight, substringMatcher } from '../../content/highlight.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { useChannel, useSession } from '../../session.tsx';
import { addressHere } from '../../addresses.ts';
import { FollowControls } from '../channel/FollowControls.tsx';

/** People found, each to open or follow; the part of their name or address that matched is marked. */
function PeopleList({ people, q, label }: { people: User[]; q: string; label: string }) {
  const channel = useChannel();
  const { session } = useSession();
  const marks = substringMatcher(q);
  return (
    <ul className="list card" aria-label={label}>
      {people.map((u) => (
        <li key={u.id} className="list-row person-result">
          <Link to={`/channel/${encodeURIComponent(u.screen_name)}`} className="person-link">
            <Avatar src={u.profile_image_url_profile_size || u.profile_image_url} name={u.name || u.screen_name} size={44} />
            <span className="list-main">
              <span className="person-name">{highlight(u.name || u.screen_name, marks)}</span>
              <span className="muted person-address">{highlight(isElsewhere(u) ? `@${u.screen_name}` : addressHere(session, u.screen_name), marks)}</span>
            </span>
          </Link>
          {u.screen_name.toLowerCase() !== channel.nick.toLowerCase() && <FollowControls user={u} />}
        </li>
      ))}
    </ul>
  );
}

/** People found by an address or profile URL (looked up on their server when the hub federates), to open or follow. */
export function PeopleResults({ q }: { q: string }) {
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
  return <PeopleList people={found} q={q} label="People" />;
}

/** Up to this many people by name above the posts found. */
const PEOPLE_SHOWN = 5;

/**
 * People whose name or nickname holds the words searched, here or elsewhere (those the hub knows):
 * shown above the posts found, and not at all when there are none.
 */
export function PeopleByName({ q }: { q: string }) {
  const people = useLoad(() => findPeople(q), [q]);
  if (people.status === 'error' && !people.data) return <ErrorNote error={`People could not be searched: ${people.error}`} onRetry={people.reload} />;
  const found = (people.data ?? []).slice(0, PEOPLE_SHOWN);
  if (!found.length) return null;
  return (
    <section className="search-people" aria-labelledby="search-people-title">
      <h2 id="search-people-title" className="search-section-title">
        People
      </h2>
      <PeopleList people={found} q={q} label={`People named ${q}`} />
    </section>
  );
}
