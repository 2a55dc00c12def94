import { useId, useRef, useState, type FormEvent } from 'react';
import { comment } from '../../api/statuses.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useKeepFocus } from '../../hooks/useKeepFocus.ts';
import { useMe } from '../../me.tsx';
import { useChannel } from '../../session.tsx';

interface Props {
  /** The post, or the comment this answers. */
  parentId: number;
  onPosted: () => Promise<void>;
  /** The name of the comment's author, when this answers a comment. */
  replyingTo?: string;
  onCancel?: () => void;
}

export function CommentForm({ parentId, onPosted, replyingTo, onCancel }: Props) {
  const [text, setText] = useState('');
  const id = useId();
  const channel = useChannel();
  const { me, photo } = useMe();
  const action = useAction(comment);
  const box = useRef<HTMLTextAreaElement>(null);
  const keepFocus = useKeepFocus(action.busy, box);
  const label = replyingTo ? `Reply to ${replyingTo}` : 'Write a comment';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    keepFocus();
    if (await action.run(parentId, text.trim())) {
      setText('');
      await onPosted();
    }
  };

  return (
    <form className="comment-form" onSubmit={submit} aria-label={replyingTo ? label : undefined}>
      <Avatar src={photo(me?.profile_image_url)} name={channel.name} size={32} />
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        ref={box}
        rows={1}
        placeholder={`${label}…`}
        value={text}
        autoFocus={Boolean(replyingTo)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
          if (e.key === 'Escape' && onCancel) onCancel();
        }}
      />
      <button type="submit" className="button button-small" disabled={action.busy || !text.trim()}>
        {action.busy ? 'Sending…' : replyingTo ? 'Reply' : 'Comment'}
      </button>
      {onCancel && (
        <button type="button" className="button button-small button-quiet" onClick={onCancel}>
          Cancel
        </button>
      )}
      {action.error && <ErrorNote error={action.error} />}
    </form>
  );
}
