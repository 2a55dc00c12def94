import { useId, useState, type FormEvent } from 'react';
import { comment } from '../../api/statuses.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ErrorNote } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useMe } from '../../me.tsx';
import { useChannel } from '../../session.tsx';

export function CommentForm({ parentId, onPosted }: { parentId: number; onPosted: () => Promise<void> }) {
  const [text, setText] = useState('');
  const id = useId();
  const channel = useChannel();
  const { me, photo } = useMe();
  const action = useAction(comment);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    if (await action.run(parentId, text.trim())) {
      setText('');
      await onPosted();
    }
  };

  return (
    <form className="comment-form" onSubmit={submit}>
      <Avatar src={photo(me?.profile_image_url)} name={channel.name} size={32} />
      <label htmlFor={id} className="visually-hidden">
        Write a comment
      </label>
      <textarea
        id={id}
        rows={1}
        placeholder="Write a comment…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
      />
      <button type="submit" className="button button-small" disabled={action.busy || !text.trim()}>
        {action.busy ? 'Sending…' : 'Comment'}
      </button>
      {action.error && <ErrorNote error={action.error} />}
    </form>
  );
}
