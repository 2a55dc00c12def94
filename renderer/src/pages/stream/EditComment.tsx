import { useId, useState, type FormEvent } from 'react';
import { editComment, itemSource } from '../../api/statuses.ts';
import type { Status } from '../../api/types.ts';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';

type Done = (saved: boolean) => Promise<void> | void;

/** Edits the text of one of the owner's comments in place, starting from its stored source. */
export function EditComment({ comment, onDone }: { comment: Status; onDone: Done }) {
  const source = useLoad(() => itemSource(comment.id), [comment.id]);
  if (source.status === 'ready') return <CommentEditor id={comment.id} initial={source.data?.body ?? comment.text} onDone={onDone} />;
  if (source.status === 'loading') return <Loading label="Opening the comment…" />;
  return (
    <div>
      <ErrorNote error={`The comment could not be opened for editing: ${source.error}`} onRetry={source.reload} />
      <button type="button" className="button button-quiet" onClick={() => onDone(false)}>
        Cancel
      </button>
    </div>
  );
}

function CommentEditor({ id, initial, onDone }: { id: number; initial: string; onDone: Done }) {
  const [text, setText] = useState(initial);
  const fieldId = useId();
  const action = useAction(editComment);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    if (await action.run(id, text.trim())) await onDone(true);
  };

  return (
    <form className="comment-form comment-edit" onSubmit={save} aria-label="Edit comment">
      <label htmlFor={fieldId} className="visually-hidden">
        Comment text
      </label>
      <textarea id={fieldId} rows={2} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
      <button type="submit" className="button button-small" disabled={action.busy || !text.trim()}>
        {action.busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="button button-small button-quiet" onClick={() => onDone(false)}>
        Cancel
      </button>
      {action.error && <ErrorNote error={action.error} />}
    </form>
  );
}
