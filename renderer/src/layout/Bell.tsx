import { Icon } from '../components/Icon.tsx';
import { useNotifications } from '../notifications.tsx';
import { Link } from '../router.tsx';

export function Bell() {
  const { unseen } = useNotifications();
  const label = unseen ? `Notifications: ${unseen} unseen` : 'Notifications: none unseen';
  return (
    <Link to="/notifications" className="bell icon-button" aria-label={label} title={label}>
      <Icon name="bell" size={22} />
      {unseen > 0 && (
        <span className="bell-count" data-testid="bell-count">
          {unseen > 99 ? '99+' : unseen}
        </span>
      )}
    </Link>
  );
}
