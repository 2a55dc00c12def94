import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { listConnections } from '../../api/connections.ts';
import { nativeGroups } from '../../api/groups.ts';
import { Icon } from '../../components/Icon.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';

export interface Audience {
  /** Group hashes. */
  groups: string[];
  /** Connection xchan hashes. */
  contacts: string[];
}

export const PUBLIC: Audience = { groups: [], contacts: [] };

function toggle(list: string[], value: string, on: boolean): string[] {
  return on ? [...new Set([...list, value])] : list.filter((v) => v !== value);
}

/** Who can see a post: everyone, or chosen groups and single connections. */
export function AudiencePicker({ value, onChange }: { value: Audience; onChange: (a: Audience) => void }) {
  const [open, setOpen] = useState(false);
  const [restricted, setRestricted] = useState(value.groups.length + value.contacts.length > 0);
  const panelId = useId();
  const chip = useRef<HTMLButtonElement>(null);
  // Asked for when they are needed (the panel opens, or the audience already names someone), not
  // with every composer: a channel's connections are megabytes after years of use.
  const needed = open || value.groups.length + value.contacts.length > 0;
  const [wanted, setWanted] = useState(needed);
  if (needed && !wanted) setWanted(true);
  const choices = useLoad(async () => {
    if (!wanted) return undefined;
    const [groups, connections] = await Promise.all([nativeGroups(), listConnections()]);
    return { groups, connections };
  }, [wanted]);

  const groupName = (hash: string) => choices.data?.groups.find((g) => g.hash === hash)?.gname;
  const personName = (hash: string) => choices.data?.connections.find((c) => c.abook_xchan === hash)?.xchan_name;
  const chosen = [...value.groups.map(groupName), ...value.contacts.map(personName)].filter(Boolean) as string[];
  const summary = !restricted || chosen.length === 0 ? (restricted ? 'Nobody chosen yet' : 'Public') : chosen.length <= 2 ? chosen.join(', ') : `${chosen.slice(0, 2).join(', ')} +${chosen.length - 2}`;

  // Closing (Done or Escape) gives the focus back to the button that opened the panel.
  const close = () => {
    setOpen(false);
    chip.current?.focus();
  };
  const onPanelKey = (e: KeyboardEvent<HTMLFieldSetElement>) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    close();
  };

  return (
    <div className="audience-picker">
      <button ref={chip} type="button" className="chip" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <Icon name={restricted ? 'lock' : 'globe'} size={16} />
        <span>Audience: {summary}</span>
      </button>
      {open && (
        <fieldset id={panelId} className="audience-panel" onKeyDown={onPanelKey}>
          <legend>Who can see this post</legend>
          <label className="choice">
            <input
              type="radio"
              name={`${panelId}-mode`}
              checked={!restricted}
              onChange={() => {
                setRestricted(false);
                onChange(PUBLIC);
              }}
            />
            Public — anyone
          </label>
          <label className="choice">
            <input type="radio" name={`${panelId}-mode`} checked={restricted} onChange={() => setRestricted(true)} />
            Only the groups and people I choose
          </label>
          {restricted && choices.status === 'loading' && <Loading label="Loading your groups and connections…" />}
          {restricted && choices.status === 'error' && <ErrorNote error={`Your groups and connections could not be loaded: ${choices.error}`} onRetry={choices.reload} />}
          {restricted && choices.data && (
            <div className="audience-lists">
              <fieldset>
                <legend>Groups</legend>
                {choices.data.groups.length === 0 && <p className="muted">No groups yet. Create them under Groups.</p>}
                {choices.data.groups.map((g) => (
                  <label key={g.hash} className="choice">
                    <input type="checkbox" checked={value.groups.includes(g.hash)} onChange={(e) => onChange({ ...value, groups: toggle(value.groups, g.hash, e.target.checked) })} />
                    {g.gname}
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>People</legend>
                {choices.data.connections.length === 0 && <p className="muted">No connections yet.</p>}
                {choices.data.connections.map((c) => (
                  <label key={c.abook_xchan} className="choice">
                    <input type="checkbox" checked={value.contacts.includes(c.abook_xchan)} onChange={(e) => onChange({ ...value, contacts: toggle(value.contacts, c.abook_xchan, e.target.checked) })} />
                    {c.xchan_name} <span className="muted">{c.xchan_addr}</span>
                  </label>
                ))}
              </fieldset>
            </div>
          )}
          <button type="button" className="button button-small" onClick={close}>
            Done
          </button>
        </fieldset>
      )}
    </div>
  );
}
