import { useState, type FormEvent } from 'react';
import { createGroup, groupSummaries } from '../../api/groups.ts';
import { Icon } from '../../components/Icon.tsx';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link, navigate } from '../../router.tsx';

export const memberCount = (n: number) => (n === 1 ? '1 member' : `${n} members`);

/** Privacy groups with their member counts (counted by the hub, no member is listed), and creating a new one. */
export function GroupsPage() {
  const groups = useLoad(groupSummaries, []);
  const [name, setName] = useState('');
  const create = useAction(async (groupName: string) => {
    const result = await createGroup(groupName);
    navigate(`/groups/${encodeURIComponent(String(result.gid))}`);
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    if ((groups.data ?? []).some((g) => g.name.toLowerCase() === n.toLowerCase())) return create.setError(`You already have a group called “${n}”.`);
    if (await create.run(n)) setName('');
  };

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Groups</h1>
          <p className="muted">Groups let you share a post with just some of your connections.</p>
        </div>
      </div>
      <form className="card inline-form" onSubmit={submit}>
        <label htmlFor="new-group">New group</label>
        <input id="new-group" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Family" maxLength={100} />
        <button type="submit" className="button button-primary" disabled={create.busy || !name.trim()}>
          {create.busy ? 'Creating…' : 'Create group'}
        </button>
        {create.error && <ErrorNote error={create.error} />}
      </form>
      {groups.status === 'loading' && !groups.data && <Loading label="Loading your groups…" />}
      {groups.status === 'error' && <ErrorNote error={`Your groups could not be loaded: ${groups.error}`} onRetry={groups.reload} />}
      {groups.data && groups.data.length === 0 && <Empty title="You have no groups yet.">Create one above, then add people from your connections.</Empty>}
      {groups.data && groups.data.length > 0 && (
        <ul className="list card" aria-label="Your groups">
          {groups.data.map((g) => (
            <li key={g.id}>
              <Link to={`/groups/${encodeURIComponent(String(g.id))}`} className="list-row">
                <span className="list-icon">
                  <Icon name="groups" />
                </span>
                <span className="list-main person-name">{g.name}</span>
                <span className="muted">{memberCount(g.member_count)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
