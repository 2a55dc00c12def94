import { isIgnored, isRequest, listConnections } from '../../api/connections.ts';
import { nativeGroups } from '../../api/groups.ts';
import type { StreamFilter } from '../../api/network.ts';
import { useLoad } from '../../hooks/useLoad.ts';

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
 * Its choices are asked for once the stream has shown its first page (`ready`): a channel's
 * connections are megabytes after years of use, and the hub would answer them before the stream.
 */
export function StreamFilters({ filter, onChange, ready }: { filter?: StreamFilter; onChange: (f: StreamFilter | undefined) => void; ready: boolean }) {
  // The groups' names only (group_show would bring every member of every group), by name.
  const groups = useLoad(async () => (ready ? (await nativeGroups()).sort((a, b) => a.gname.localeCompare(b.gname, undefined, { sensitivity: 'base' }) || Number(a.id) - Number(b.id)) : undefined), [ready]);
  const connections = useLoad(async () => (ready ? (await listConnections()).filter((c) => String(c.abook_self) !== '1' && !isRequest(c) && !isIgnored(c)) : undefined), [ready]);
  const group = filter && 'group' in filter ? filter.group : '';
  const connection = filter && 'connection' in filter ? filter.connection : '';
  const groupName = groups.data?.find((g) => g.id === group)?.gname;
  const connectionName = connections.data?.find((c) => c.abook_id === connection)?.xchan_name;
  if (!filter && groups.data?.length === 0 && connections.data?.length === 0) return null;
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
          {(connections.data ?? []).map((c) => (
            <option key={c.abook_id} value={c.abook_id}>
              {c.xchan_name || c.xchan_addr}
            </option>
          ))}
        </select>
      </label>
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
