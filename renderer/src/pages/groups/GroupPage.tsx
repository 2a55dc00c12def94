import { useState, type FormEvent } from 'react';
import { deleteGroup, groupMembersPage, groupSummaries, renameGroup, setGroupMember } from '../../api/groups.ts';
import type { GroupMember } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useConnectionSearch } from '../../hooks/useConnectionSearch.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link, navigate } from '../../router.tsx';
import { memberCount } from './GroupsPage.tsx';

/** Members, and connections to add, are shown this many at a time. */
const MEMBERS_PAGE = 100;

/**
 * One group: its members with photos and addresses, a page at a time; adding or removing one member
 * (the others are not sent again), renaming, deleting.
 */
export function GroupPage({ gid }: { gid: string }) {
  const [shown, setShown] = useState(MEMBERS_PAGE);
  const data = useLoad(async () => {
    const [groups, members] = await Promise.all([groupSummaries(), groupMembersPage(gid, 0, shown)]);
    const found = groups.find((g) => String(g.id) === gid);
    return { group: found && { name: found.name, count: found.member_count }, members };
  }, [gid, shown]);
  const [renaming, setRenaming] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const [adding, setAdding] = useState('');
  const [find, setFind] = useState('');
  const connections = useConnectionSearch(find, MEMBERS_PAGE);

  const group = data.data?.group;
  const members: GroupMember[] = data.data?.members ?? [];
  const memberIds = new Set(members.map((m) => String(m.abook_id)));
  const candidates = (connections.list ?? []).filter((c) => !memberIds.has(String(c.abook_id)));

  const change = useAction(async (address: string, member: boolean) => {
    await setGroupMember(gid, address, member);
    await data.reload();
  });
  const rename = useAction(async (name: string) => {
    await renameGroup(gid, name);
    setRenaming(undefined);
    await data.reload();
  });

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const who = candidates.find((c) => String(c.abook_id) === adding);
    if (!who?.xchan_addr) return;
    if (await change.run(who.xchan_addr, true)) setAdding('');
  };

  if (data.status === 'loading' && !data.data) return <Loading label="Loading the group…" />;
  if (data.status === 'error' && !data.data) return <ErrorNote error={`The group could not be loaded: ${data.error}`} onRetry={data.reload} />;
  if (!group)
    return (
      <Empty title="This group does not exist any more.">
        <Link to="/groups">Back to your groups</Link>
      </Empty>
    );

  return (
    <div className="page">
      <p className="back">
        <Link to="/groups">← All groups</Link>
      </p>
      <div className="page-head">
        {renaming === undefined ? (
          <div>
            <h1>{group.name}</h1>
            <p className="muted">{memberCount(group.count)}</p>
          </div>
        ) : (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (renaming.trim()) void rename.run(renaming.trim());
            }}
          >
            <label htmlFor="group-name">Group name</label>
            <input id="group-name" value={renaming} onChange={(e) => setRenaming(e.target.value)} autoFocus />
            <button type="submit" className="button button-primary" disabled={rename.busy}>
              {rename.busy ? 'Saving…' : 'Save name'}
            </button>
            <button type="button" className="button button-quiet" onClick={() => setRenaming(undefined)}>
              Cancel
            </button>
          </form>
        )}
        {renaming === undefined && (
          <div className="page-tools">
            <Link to={`/stream?group=${encodeURIComponent(gid)}`} className="button button-quiet">
              Show posts
            </Link>
            <button type="button" className="button button-quiet" onClick={() => setRenaming(group.name)}>
              Rename
            </button>
            <button type="button" className="button button-quiet button-danger-text" onClick={() => setDeleting(true)}>
              Delete group
            </button>
          </div>
        )}
      </div>
      {rename.error && <ErrorNote error={`The group was not renamed: ${rename.error}`} />}
      {data.status === 'error' && <ErrorNote error={`The group could not be refreshed: ${data.error}`} onRetry={data.reload} />}

      <form className="card inline-form" onSubmit={add}>
        {(connections.more || find || connections.answered) && (
          <input type="search" className="connection-find" aria-label="Find someone to add by name" placeholder="Find someone to add by name…" value={find} onChange={(e) => setFind(e.target.value)} autoComplete="off" />
        )}
        <label htmlFor="add-member">Add a connection</label>
        <select id="add-member" value={adding} onChange={(e) => setAdding(e.target.value)} disabled={candidates.length === 0}>
          <option value="">{candidates.length ? 'Choose someone…' : connections.answered ? `Nobody named “${connections.answered}” to add` : connections.list ? 'All your connections are in this group' : 'Loading your connections…'}</option>
          {candidates.map((c) => (
            <option key={c.abook_id} value={String(c.abook_id)}>
              {c.xchan_name} ({c.xchan_addr})
            </option>
          ))}
        </select>
        <button type="submit" className="button button-primary" disabled={!adding || change.busy}>
          {change.busy ? 'Saving…' : 'Add to group'}
        </button>
        {connections.list?.length === 0 && !connections.answered && (
          <p className="muted">
            You have no connections yet. <Link to="/connections">Connect with someone</Link> first.
          </p>
        )}
      </form>
      {change.error && <ErrorNote error={`The members were not changed: ${change.error}`} />}

      {members.length === 0 ? (
        <Empty title="Nobody is in this group yet." />
      ) : (
        <ul className="list card" aria-label="Members">
          {members.map((m) => (
            <li key={m.xchan} className="list-row">
              <Avatar src={m.xchan_photo_m || m.xchan_photo_s} name={m.xchan_name ?? '?'} size={40} />
              <span className="list-main">
                <span className="person-name">{m.xchan_name}</span>
                <span className="muted person-address">{m.xchan_addr}</span>
              </span>
              <button type="button" className="button button-quiet button-small" disabled={change.busy} onClick={() => void change.run(m.xchan_addr ?? '', false)} aria-label={`Remove ${m.xchan_name} from the group`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {members.length > 0 && members.length < group.count && (
        <div className="load-more">
          <button type="button" className="button button-quiet" onClick={() => setShown(shown + MEMBERS_PAGE)} disabled={data.status === 'loading'}>
            {data.status === 'loading' ? 'Loading…' : 'Show more members'}
          </button>
        </div>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete the group “${group.name}”?`}
          message="The group goes away; the people in it stay your connections. Posts already shared with the group keep their audience."
          confirmLabel="Delete group"
          onConfirm={async () => {
            await deleteGroup(gid, group.name);
            navigate('/groups');
          }}
          onClose={() => setDeleting(false)}
        />
      )}
    </div>
  );
}
