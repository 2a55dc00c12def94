import { useState } from 'react';
import { getConnection, isIgnored, isRequest } from '../../api/connections.ts';
import { nativeGroups } from '../../api/groups.ts';
import type { StreamFilter } from '../../api/network.ts';
import { useConnectionSearch } from '../../hooks/useConnectionSearch.ts';
import { useLoad } from '../../hooks/useLoad.ts';

/** The connection choice holds this many; with more, a search box asks the hub for those named. */
const CHOICES_PAGE = 100;

/** The filter in the stream's address: /stream?group=<id> or /stream?connection=<abook id>. */
export function filterFromQuery(query: URLSearchParams): StreamFilter | undefined {
  const group = query.get('group');
  if (group && /^\d+$/.test(group)) return { group };
  const connection = query.get('connection');
  if (connection && /^\d+$/.test(connection)) return { connection };
  return undefined;
}

export function filterQuery(filter: StreamFilter | undefined): string {
  if (!filter) return '/stream';
  return 'group' in filter ? `/stream?group=${filter.group}` : `/stream?connection=${filter.connection}`;
}

/**
 * Narrows the stream to one group (its members' posts and posts sent to it) or one connection.
 * Its choices are asked for once the stream has shown its first page (`ready`), and only a page of
 * connections (a channel's connections are megabytes after years of use): with more than fit, a
 * search box asks the hub for those named.
 */
export function StreamFilters({ filter, onChange, ready }: { filter?: StreamFilter; onChange: (f: StreamFilter | undefined) => void; ready: boolean }) {
  // The groups' names only (group_show would bring every member of every group), by name.
  const groups = useLoad(async () => (ready ? (await nativeGroups()).sort((a, b) => a.gname.localeCompare(b.gname, undefined, { sensitivity: 'base' }) || Number(a.id) - Number(b.id)) : undefined), [ready]);
  const [find, setFind] = useState('');
  const found = useConnectionSearch(find, CHOICES_PAGE, ready);
  const group = filter && 'group' in filter ? filter.group : '';
  const connection = filter && 'connection' in filter ? filter.connection : '';
  const choices = (found.list ?? []).filter((c) => !isRequest(c) && !isIgnored(c));
  // The chosen connection is named even when it is not among the choices shown.
  const listed = choices.find((c) => c.abook_id === connection);
  const chosen = useLoad(async () => (ready && connection && found.list && !listed ? getConnection(connection) : undefined), [ready, connection, Boolean(found.list && !listed)]);
  const current = listed ?? (chosen.data?.abook_id === connection ? chosen.data : undefined);
  const options = current && !listed ? [current, ...choices] : choices;
  const groupName = groups.data?.find((g) => g.id === group)?.gname;
  const connectionName = current?.xchan_name;
  if (!filter && groups.data?.length === 0 && found.list?.length === 0 && !found.answered) return null;
  const shown = groupName ? `the group ${groupName}` : connectionName;

  return (
    <form className="card stream-filters" aria-label="Filter the stream" onSubmit={(e) => e.preventDefault()}>
      <label>
        Group
        <select value={group} onChange={(e) => onChange(e.target.value ? { group: e.target.value } : undefined)}>
          <option value="">All groups</option>
          {(groups.data ?? []).map((g) => (
            <option key={g.id} value={g.id}>
              {g.gname}
            </option>
          ))}
        </select>
      </label>
      <label>
        Connection
        <select value={connection} onChange={(e) => onChange(e.target.value ? { connection: e.target.value } : undefined)}>
          <option value="">All connections</option>
          {options.map((c) => (
            <option key={c.abook_id} value={c.abook_id}>
              {c.xchan_name || c.xchan_addr}
            </option>
          ))}
        </select>
      </label>
      {(found.more || find || found.answered) && (
        <label>
          Find someone
          <input type="search" placeholder="Name or address" value={find} onChange={(e) => setFind(e.target.value)} autoComplete="off" />
        </label>
      )}
      {filter && (
        <button type="button" className="button button-quiet button-small" onClick={() => onChange(undefined)}>
          Show everything
        </button>
      )}
      {filter && shown && (
        <p className="stream-filter-note muted" role="status">
          Showing only posts {groupName ? 'by members of or shared with' : 'by'} {shown}.
        </p>
      )}
    </form>
  );
}
