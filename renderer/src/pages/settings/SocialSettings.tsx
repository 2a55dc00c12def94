import { useEffect, useId, useState, type FormEvent } from 'react';
import { saveSocialSettings, socialSettings, type CommentPolicy, type SocialSettings as Settings } from '../../api/socialSettings.ts';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { useNotify } from '../../notices.tsx';

const POLICIES: { value: CommentPolicy; label: string }[] = [
  { value: 'anyone', label: 'Anyone who can see them' },
  { value: 'connections', label: 'Only my connections' },
  { value: 'nobody', label: 'Nobody' },
];

/** Whether follows need approval, and who may comment on the channel's posts. */
export function SocialSettings() {
  const ids = useId();
  const notify = useNotify();
  const loaded = useLoad(socialSettings, []);
  const [draft, setDraft] = useState<Settings>();

  useEffect(() => {
    if (loaded.data) setDraft({ protected: Boolean(loaded.data.protected), comment_policy: loaded.data.comment_policy ?? 'anyone' });
  }, [loaded.data]);

  const save = useAction(async (s: Settings) => {
    const saved = await saveSocialSettings(s);
    loaded.setData(saved);
    notify('Your settings for followers and comments were saved.', 'info');
  });

  if (loaded.status === 'error' && !loaded.data) return <ErrorNote error={`These settings could not be loaded: ${loaded.error}`} onRetry={loaded.reload} />;
  if (!draft) return <Loading label="Loading your settings…" />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(draft);
  };

  return (
    <form className="form social-form" onSubmit={submit}>
      <label className="choice">
        <input type="checkbox" checked={draft.protected} onChange={(e) => setDraft({ ...draft, protected: e.target.checked })} aria-describedby={`${ids}-approve-hint`} />
        <span>Approve followers by hand</span>
      </label>
      <p id={`${ids}-approve-hint`} className="hint">
        {draft.protected ? 'Someone who wants to follow you asks first; you accept or ignore them under Connections.' : 'Anyone can follow you at once.'}
      </p>
      <fieldset className="choice-group" aria-describedby={`${ids}-comment-hint`}>
        <legend>Who may comment on and like my posts</legend>
        {POLICIES.map((p) => (
          <label key={p.value} className="choice">
            <input type="radio" name={`${ids}-comments`} value={p.value} checked={draft.comment_policy === p.value} onChange={() => setDraft({ ...draft, comment_policy: p.value })} />
            <span>{p.label}</span>
          </label>
        ))}
      </fieldset>
      <p id={`${ids}-comment-hint`} className="hint">You can also close the comments of a single post when you write it.</p>
      {save.error && <ErrorNote error={`Your settings were not saved: ${save.error}`} />}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
