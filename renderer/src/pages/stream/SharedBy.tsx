import type { Status, User } from '../../api/types.ts';
import { Icon } from '../../components/Icon.tsx';
import { Time } from '../../components/Time.tsx';
import { Link } from '../../router.tsx';
import { authorOf, isMine } from './threads.ts';

/** Who shared a post, each once, the owner first ("you"). */
export function sharers(shares: Status[], nick: string): { mine: boolean; others: User[] } {
  const others = new Map<string, User>();
  let mine = false;
  for (const s of shares) {
    if (isMine(s, nick)) mine = true;
    else others.set(authorOf(s).screen_name, authorOf(s));
  }
  return { mine, others: [...others.values()] };
}

/** "you", "Bob", "you and Bob", "you, Bob and Carol": for the card's label. */
export function sharersText(shares: Status[], nick: string): string {
  const { mine, others } = sharers(shares, nick);
  const names = [...(mine ? ['you'] : []), ...others.map((u) => u.name || u.screen_name)];
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The line above a shared post: who shared it, and when (the newest share). */
export function SharedBy({ shares, nick }: { shares: Status[]; nick: string }) {
  const { mine, others } = sharers(shares, nick);
  const parts = [
    ...(mine ? ['You'] : []),
    ...others.map((u) => (
      <Link key={u.screen_name} to={`/channel/${encodeURIComponent(u.screen_name)}`}>
        {u.name || u.screen_name}
      </Link>
    )),
  ];
  return (
    <p className="shared-by muted">
      <Icon name="share" size={14} />{' '}
      <span>
        {parts.map((p, i) => (
          <span key={i}>
            {i > 0 && (i === parts.length - 1 ? ' and ' : ', ')}
            {p}
          </span>
        ))}{' '}
        shared · <Time value={shares[0]!.created_at} />
      </span>
    </p>
  );
}
