import { useMemo } from 'react';
import { searchStatuses } from '../../api/statuses.ts';
import { Empty } from '../../components/Status.tsx';
import { ThreadList } from '../stream/ThreadList.tsx';
import { useStream, type Timeline } from '../stream/useStream.ts';

/** The posts tagged #tag that the owner may see (/tags/<tag>, where a post's hashtags lead). */
export function TagPage({ tag }: { tag: string }) {
  const timeline = useMemo<Timeline>(() => ({ key: `tag:${tag}`, load: (maxId, count) => searchStatuses(`#${tag}`, maxId, count) }), [tag]);
  const stream = useStream(undefined, timeline);
  return (
    <div className="page page-stream">
      <h1 className="page-title">#{tag}</h1>
      <ThreadList
        stream={stream}
        texts={{
          label: `Posts tagged #${tag}`,
          loading: 'Loading the posts…',
          failed: 'The posts could not be loaded',
          end: 'These are all the posts with this tag.',
          empty: <Empty title={`No posts tagged #${tag} that you can see.`}>Tags are words after # in a post.</Empty>,
        }}
      />
    </div>
  );
}
