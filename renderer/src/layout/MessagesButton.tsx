import { Icon } from '../components/Icon.tsx';
import { useUnreadMessages } from '../messages.tsx';
import { Link } from '../router.tsx';

/** The top bar's way to the direct messages, with the number not read yet. */
export function MessagesButton() {
  const { unread } = useUnreadMessages();
  const label = unread ? `Messages: ${unread} unread` : 'Messages: none unread';
  return (
    <Link to="/messages" className="bell icon-button" aria-label={label} title={label}>
      <Icon name="mail" size={22} />
      {unread > 0 && <span className="bell-count">{unread > 99 ? '99+' : unread}</span>}
    </Link>
  );
}
