import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { connectionsByHash } from '../../api/connections.ts';
import { nativeGroups } from '../../api/groups.ts';
import { Icon } from '../../components/Icon.tsx';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { useConnectionSearch } from '../../hooks/useConnectionSearch.ts';
import type { Connection } from '../../api/types.ts';

export interface Audience {
  /** Group hashes. */
  groups: string[];
  /** Connection xchan hashes. */
  contacts: string[];
}

export const PUBLIC: Audience = { groups: [], contacts: [] };

/** People are shown this many at a time. */
const PEOPLE_PAGE = 20;

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
  const groups = useLoad(async () => (wanted ? nativeGroups() : undefined), [wanted]);
  // People are found by the hub as they are typed, a page at a time.
  const [query, setQuery] = useState('');
  const people = useConnectionSearch(query, PEOPLE_PAGE, wanted);
  // Everyone met so far by hash: the chosen stay named when the search moves on.
  const [met, setMet] = useState(() => new Map<string, Connection>());
  const remember = (list: Connection[]) => setMet((m) => (list.every((c) => m.has(c.abook_xchan)) ? m : new Map([...m, ...list.map((c) => [c.abook_xchan, c] as const)])));
  useEffect(() => {
    if (people.list) remember(people.list);
  }, [people.list]);
  // The chosen who were not met in a search (an audience given beforehand) are asked for by hash.
  const unnamed = value.contacts.filter((h) => !met.has(h));
  useEffect(() => {
    if (unnamed.length) connectionsByHash(unnamed).then(remember, () => undefined);
  }, [unnamed.join(' ')]); // eslint-disable-line react-hooks/exhaustive-deps

  const groupName = (hash: string) => groups.data?.find((g) => g.hash === hash)?.gname;
  const personName = (hash: string) => met.get(hash)?.xchan_name;
  const chosen = [...value.groups.map(groupName), ...value.contacts.map(personName)].filter(Boolean) as string[];
  const summary = !restricted || chosen.length === 0 ? (restricted ? 'Nobody chosen yet' : 'Public') : chosen.length <= 2 ? chosen.join(', ') : `${chosen.slice(0, 2).join(', ')} +${chosen.length - 2}`;
  const found = people.list ?? [];
  // The chosen come first, then the others found.
  const shownPeople = [...value.contacts.flatMap((h) => met.get(h) ?? []), ...found.filter((c) => !value.contacts.includes(c.abook_xchan))];

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
          {restricted && groups.status === 'loading' && <Loading label="Loading your groups…" />}
          {restricted && groups.status === 'error' && <ErrorNote error={`Your groups could not be loaded: ${groups.error}`} onRetry={groups.reload} />}
          {restricted && people.status === 'error' && <ErrorNote error={`Your connections could not be loaded: ${people.error}`} onRetry={people.reload} />}
          {restricted && (
            <div className="audience-lists">
              <fieldset>
                <legend>Groups</legend>
                {groups.data?.length === 0 && <p className="muted">No groups yet. Create them under Groups.</p>}
                {(groups.data ?? []).map((g) => (
                  <label key={g.hash} className="choice">
                    <input type="checkbox" checked={value.groups.includes(g.hash)} onChange={(e) => onChange({ ...value, groups: toggle(value.groups, g.hash, e.target.checked) })} />
                    {g.gname}
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>People</legend>
                {(people.more || query || people.answered) && (
                  <input type="search" className="audience-find" aria-label="Find people by name" placeholder="Find people by name…" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" />
                )}
                {!people.list && people.status === 'loading' && <Loading label="Loading your connections…" />}
                {people.list && shownPeople.length === 0 && <p className="muted">{people.answered ? `Nobody named “${people.answered}”.` : 'No connections yet.'}</p>}
                {shownPeople.map((c) => (
                  <label key={c.abook_xchan} className="choice">
                    <input type="checkbox" checked={value.contacts.includes(c.abook_xchan)} onChange={(e) => onChange({ ...value, contacts: toggle(value.contacts, c.abook_xchan, e.target.checked) })} />
                    {c.xchan_name} <span className="muted">{c.xchan_addr}</span>
                  </label>
                ))}
                {people.more && (
                  <button type="button" className="button button-quiet button-small" onClick={() => void people.loadMore()} disabled={people.status === 'loading'}>
                    {people.status === 'loading' ? 'Loading…' : 'More people'}
                  </button>
                )}
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
