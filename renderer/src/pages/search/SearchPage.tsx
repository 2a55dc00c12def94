import { useMemo } from 'react';
import { looksLikeAddress } from '../../api/people.ts';
import { searchStatuses } from '../../api/statuses.ts';
import { Empty } from '../../components/Status.tsx';
import { useLocation } from '../../router.tsx';
import { ThreadList } from '../stream/ThreadList.tsx';
import { useStream, type Timeline } from '../stream/useStream.ts';
import { PeopleResults } from './PeopleResults.tsx';
import { SearchForm } from './SearchForm.tsx';
import { TagPage } from './TagPage.tsx';

/**
 * Full-text search over the posts and comments the owner may see (/search?q=…); an address
 * (user@server, @user@server) or a profile URL finds that person instead, here or elsewhere.
 */
export function SearchPage() {
  const { query } = useLocation();
  // Hubzilla's tag address (/search?tag=…), which the APIs hand out as a hashtag's url.
  const tag = query.get('tag')?.trim();
  return tag ? <TagPage key={tag} tag={tag} /> : <TextSearch />;
}

function TextSearch() {
  const { query } = useLocation();
  const q = (query.get('q') ?? '').trim();
  const timeline = useMemo<Timeline | undefined>(() => (q && !looksLikeAddress(q) ? { key: `search:${q}`, load: (maxId, count) => searchStatuses(q, maxId, count) } : undefined), [q]);
  return (
    <div className="page page-stream">
      <h1 className="page-title">Search</h1>
      <SearchForm key={q} initial={q} className="search-form-page" label="Search on this page" />
      {looksLikeAddress(q) ? (
        <PeopleResults key={q} q={q} />
      ) : timeline ? (
        <SearchResults q={q} timeline={timeline} />
      ) : (
        <Empty title="Search your stream.">Type words to find the posts and comments containing all of them, #tag for a tag, or someone's address (user@server) to find and follow them.</Empty>
      )}
    </div>
  );
}

function SearchResults({ q, timeline }: { q: string; timeline: Timeline }) {
  const stream = useStream(undefined, timeline);
  return (
    <ThreadList
      stream={stream}
      texts={{
        label: `Results for ${q}`,
        loading: 'Searching…',
        failed: 'The search failed',
        end: 'No more results.',
        empty: <Empty title={`Nothing found for “${q}”.`}>Search finds whole words in posts and comments you can see.</Empty>,
      }}
    />
  );
}
