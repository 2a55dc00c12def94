import { ApiError, COMPAT, get } from '../../api/http.ts';
import type { User } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';

/**
 * A channel's page (/channel/<nick>, the profile URL the APIs hand out): its photo, name, address
 * and about text. (A stand-in: the full channel page with its posts replaces it.)
 */
export function ProfilePage({ nick }: { nick: string }) {
  const user = useLoad(async () => {
    try {
      return await get<User>(`${COMPAT}users/show`, { screen_name: nick });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }, [nick]);
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
    <div className="page">
      <section className="card standin-profile" aria-label="Channel">
        <Avatar src={u.profile_image_url_large ?? u.profile_image_url} name={u.name || u.screen_name} size={96} />
        <div>
          <h1>{u.name || u.screen_name}</h1>
          <p className="muted">{u.screen_name}</p>
          {u.description && <p className="profile-about">{u.description}</p>}
        </div>
      </section>
    </div>
  );
}
