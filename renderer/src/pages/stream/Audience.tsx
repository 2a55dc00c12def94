import { useEffect, useState } from 'react';
import type { Status } from '../../api/types.ts';
import { Icon } from '../../components/Icon.tsx';
import { useChannel } from '../../session.tsx';
import { audienceOf } from './audienceNames.ts';
import { isMine } from './threads.ts';

/**
 * Public, or restricted — and for the channel's own posts, to whom: "Visible to: Family, Bob".
 * Others' restricted posts only say so (their audience lists name groups of theirs).
 */
export function Audience({ status }: { status: Status }) {
  const channel = useChannel();
  const restricted = Boolean(status.friendica_private);
  const owner = status.friendica_owner ?? status.user;
  // Only posts the channel wrote on its own wall are its items to ask about (item/full).
  const own = restricted && isMine(status, channel.nick) && owner.screen_name?.toLowerCase() === channel.nick.toLowerCase();
  const [names, setNames] = useState<string[]>();

  useEffect(() => {
    if (!own) return;
    let live = true;
    audienceOf(status.id, channel.nick)
      .then((n) => live && setNames(n))
      .catch(() => live && setNames(undefined));
    return () => {
      live = false;
    };
  }, [own, status.id, channel.nick]);

  if (!restricted) {
    return (
      <span className="audience" title="Anyone can see this">
        <Icon name="globe" size={14} />
        Public
      </span>
    );
  }
  const list = names?.length ? names.join(', ') : undefined;
  return (
    <span className={`audience${list ? ' audience-named' : ''}`} title={list ? `Only ${list} can see this` : 'Only the people it was shared with can see this'} data-testid="audience">
      <Icon name="lock" size={14} />
      {list ? `Visible to: ${list}` : 'Restricted'}
    </span>
  );
}
