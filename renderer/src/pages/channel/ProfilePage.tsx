import { useMemo } from 'react';
import { isElsewhere } from '../../api/people.ts';
import { userNamed } from '../../api/profile.ts';
import { userTimeline } from '../../api/statuses.ts';
import type { User } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { useChannel, useSession } from '../../session.tsx';
import { addressHere } from '../../addresses.ts';
import { ThreadList } from '../stream/ThreadList.tsx';
import { useStream, type Timeline } from '../stream/useStream.ts';
import { FollowControls } from './FollowControls.tsx';

/**
 * A channel's page (/channel/<nick>, the profile URL the APIs hand out, and where author names and
 * @mentions lead; /channel/<nick@host> for someone elsewhere): its photo, name, address, about
 * text, how the owner and they follow each other, and the posts of it that the owner may see.
 */
export function ProfilePage({ nick }: { nick: string }) {
  const channel = useChannel();
  const { session } = useSession();
  const user = useLoad(() => userNamed(nick), [nick]);
  if (user.status === 'loading' && !user.data) return <Loading label="Loading the channel…" />;
  if (user.status === 'error') return <ErrorNote error={`The channel could not be loaded: ${user.error}`} onRetry={user.reload} />;
  const u = user.data;
  if (!u)
    return nick.includes('@') ? (
      <Empty title={`This hub does not know ${nick} yet.`}>
        <Link to={`/search?q=${encodeURIComponent(nick)}`}>Look them up on their server</Link>
      </Empty>
    ) : (
      <Empty title="There is no channel with this name here.">
        <Link to="/connections">Go to your connections</Link>
      </Empty>
    );
  const elsewhere = isElsewhere(u);
  const self = u.screen_name.toLowerCase() === channel.nick.toLowerCase();
  return (
    <div className="page page-stream">
      <section className="card profile-card" aria-label="Channel">
        <Avatar src={u.profile_image_url_large ?? u.profile_image_url} name={u.name || u.screen_name} size={96} />
        <div>
          <h1>{u.name || u.screen_name}</h1>
          <p className="muted profile-address">{elsewhere ? `@${u.screen_name}` : addressHere(session, u.screen_name)}</p>
          {u.description && <p className="profile-about">{u.description}</p>}
          {elsewhere && u.statusnet_profile_url && (
            <p className="profile-origin">
              <a href={u.url || u.statusnet_profile_url} target="_blank" rel="noopener noreferrer">
                Their profile on {hostOf(u.screen_name)}
              </a>
            </p>
          )}
          {!self && (
            <div className="profile-actions">
              <FollowControls user={u} />
              {!elsewhere && (
                <Link to={`/messages/${encodeURIComponent(u.screen_name)}`} className="button button-small">
                  Send a message
                </Link>
              )}
            </div>
          )}
        </div>
      </section>
      <ChannelPosts user={u} />
    </div>
  );
}

const hostOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

function ChannelPosts({ user }: { user: User }) {
  const nick = user.screen_name;
  const timeline = useMemo<Timeline>(() => ({ key: `user:${nick}`, load: (maxId, count) => userTimeline(nick, maxId, count) }), [nick]);
  const stream = useStream(undefined, timeline);
  const name = user.name || nick;
  return (
    <>
      <h2 className="section-title">Posts</h2>
      <ThreadList
        stream={stream}
        texts={{
          label: `Posts by ${name}`,
          loading: 'Loading the posts…',
          failed: 'The posts could not be loaded',
          end: `These are all the posts of ${name} that you can see.`,
          empty: (
            <Empty title={`No posts of ${name} that you can see.`}>
              {isElsewhere(user) ? 'Their posts come to this hub while you follow them: what they post from then on shows here.' : 'Posts they share with you, or in public, show here.'}
            </Empty>
          ),
        }}
      />
    </>
  );
}
