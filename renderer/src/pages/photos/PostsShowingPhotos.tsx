import type { Status } from '../../api/types.ts';
import { ErrorNote } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link } from '../../router.tsx';
import { threadId } from '../stream/threads.ts';

function label(s: Status): string {
  const text = s.friendica_title || s.text.replace(/\s+/g, ' ').trim() || 'A post without text';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Before deleting photos: the posts that show them, which will say "Photo removed" instead. */
export function PostsShowingPhotos({ load, what }: { load: () => Promise<Status[]>; what: string }) {
  const posts = useLoad(load, []);
  if (posts.status === 'loading') return <p className="muted">Checking which posts show {what}…</p>;
  if (posts.status === 'error') return <ErrorNote error={`Hearth could not check which posts show ${what}: ${posts.error}`} onRetry={posts.reload} />;
  const list = posts.data;
  if (!list.length) return <p className="muted">No post shows {what}.</p>;
  return (
    <div className="photo-usage" role="note" aria-label="Posts showing these photos">
      <p>
        {list.length === 1 ? 'This post shows' : `These ${list.length} posts show`} {what}. Afterwards {list.length === 1 ? 'it says' : 'they say'} “Photo removed” in {list.length === 1 ? 'its' : 'their'} place:
      </p>
      <ul>
        {list.map((s) => (
          <li key={s.id}>
            <Link to={`/item/${threadId(s)}`}>{label(s)}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
