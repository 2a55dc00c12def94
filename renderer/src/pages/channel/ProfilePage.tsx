import { useMemo } from 'react';
import { userNamed } from '../../api/profile.ts';
import { userTimeline } from '../../api/statuses.ts';
import type { User } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { useChannel } from '../../session.tsx';
import { ThreadList } from '../stream/ThreadList.tsx';
import { useStream, type Timeline } from '../stream/useStream.ts';

/**
 * A channel's page (/channel/<nick>, the profile URL the APIs hand out, and where author names and
 * @mentions lead): its photo, name, address, about text, and the posts of it that the owner may see.
 */
export function ProfilePage({ nick }: { nick: string }) {
  const channel = useChannel();
  const user = useLoad(() => userNamed(nick), [nick]);
  if (user.status === 'loading' && !user.data) return <Loading label="Loading the channel…" />;
  if (user.status === 'error') return <ErrorNote error={`The channel could not be loaded: ${user.error}`} onRetry={user.reload} />;
  const u = user.data;
  if (!u)
    return (
      <Empty title="There is no channel with this name here.">
        <Link to="/connections">Go to your connections</Link>
      </Empty>
    );
  return (
    <div className="page page-stream">
      <section className="card profile-card" aria-label="Channel">
        <Avatar src={u.profile_image_url_large ?? u.profile_image_url} name={u.name || u.screen_name} size={96} />
        <div>
          <h1>{u.name || u.screen_name}</h1>
          <p className="muted">{u.screen_name}</p>
          {u.description && <p className="profile-about">{u.description}</p>}
          {u.screen_name.toLowerCase() !== channel.nick.toLowerCase() && (
            <Link to={`/messages/${encodeURIComponent(u.screen_name)}`} className="button button-small profile-message">
              Send a message
            </Link>
          )}
        </div>
      </section>
      <ChannelPosts user={u} />
    </div>
  );
}

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
          empty: <Empty title={`No posts of ${name} that you can see.`}>Posts they share with you, or in public, show here.</Empty>,
        }}
      />
    </>
  );
}
