import { itemSource } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Composer } from './Composer.tsx';

/** Loads the post's stored BBCode and opens it in the composer. */
export function EditPost({ status, onDone }: { status: Status; onDone: (saved: boolean) => void }) {
  const source = useLoad(() => itemSource(status.id), [status.id]);
  if (source.status === 'loading') return <Loading label="Opening the post for editing…" />;
  if (source.status === 'error')
    return (
      <div>
        <ErrorNote error={`The post could not be opened for editing: ${source.error}`} onRetry={source.reload} />
        <button type="button" className="button button-quiet" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    );
  return (
    <Composer
      edit={{ postId: status.id, title: source.data?.title ?? status.friendica_title ?? '', body: source.data?.body ?? status.text, mimetype: source.data?.mimetype }}
      onPosted={() => onDone(true)}
      onCancel={() => onDone(false)}
    />
  );
}
