import { Icon } from '../components/Icon.tsx';
import { Link } from '../router.tsx';

const SECTIONS = [
  { to: '/', label: 'Stream', icon: 'stream', active: (p: string) => p === '/' || p.startsWith('/stream') || p.startsWith('/item') },
  { to: '/photos', label: 'Photos', icon: 'photos', active: (p: string) => p.startsWith('/photos') },
  { to: '/files', label: 'Files', icon: 'folder', active: (p: string) => p.startsWith('/files') },
  // On a phone the top bar's envelope leads there instead: the bar at the bottom has no room left.
  { to: '/messages', label: 'Messages', icon: 'mail', active: (p: string) => p.startsWith('/messages'), wideOnly: true },
  { to: '/groups', label: 'Groups', icon: 'groups', active: (p: string) => p.startsWith('/groups') },
  { to: '/connections', label: 'Connections', icon: 'connections', active: (p: string) => p.startsWith('/connections') },
  { to: '/settings', label: 'Settings', icon: 'settings', active: (p: string) => p.startsWith('/settings') },
];

export function Nav({ path }: { path: string }) {
  return (
    <nav className="nav" aria-label="Sections">
      {SECTIONS.map((s) => {
        const current = s.active(path);
        return (
          <Link key={s.to} to={s.to} className={`nav-link${current ? ' nav-link-current' : ''}${'wideOnly' in s ? ' nav-link-wide' : ''}`} aria-current={current ? 'page' : undefined}>
            <Icon name={s.icon} />
            <span>{s.label}</span>
          </Link>
        );
      })}
    </nav>
  );
}
