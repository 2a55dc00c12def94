import { useEffect } from 'react';
import { Link, useLocation } from '../../router.tsx';
import { AccessSettings } from './AccessSettings.tsx';
import { FederationSettings } from './FederationSettings.tsx';
import { BackupSettings } from './BackupSettings.tsx';
import { PasswordSettings } from './PasswordSettings.tsx';
import { ProfileSettings } from './ProfileSettings.tsx';
import { SocialSettings } from './SocialSettings.tsx';
import { StorageSettings } from './StorageSettings.tsx';

/** /settings/profile, /settings/lan, /settings/federation, /settings/backups (used by the desktop app) and /settings/storage open at their section. */
const SECTIONS: Record<string, string> = { '/settings/profile': 'settings-profile', '/settings/lan': 'settings-access', '/settings/federation': 'settings-federation', '/settings/backups': 'settings-backups', '/settings/storage': 'settings-storage' };

export function SettingsPage() {
  const { path } = useLocation();
  useEffect(() => {
    const id = SECTIONS[path];
    if (id) document.getElementById(id)?.scrollIntoView({ block: 'start' });
  }, [path]);

  return (
    <div className="page">
      <h1>Settings</h1>
      <section className="card" aria-labelledby="settings-profile">
        <h2 id="settings-profile">Profile</h2>
        <ProfileSettings />
      </section>
      <section className="card" aria-labelledby="settings-social">
        <h2 id="settings-social">Followers and comments</h2>
        <SocialSettings />
      </section>
      <section className="card" aria-labelledby="settings-password">
        <h2 id="settings-password">Password</h2>
        <PasswordSettings />
      </section>
      <section className="card" aria-labelledby="settings-backups">
        <h2 id="settings-backups">Backups</h2>
        <BackupSettings />
      </section>
      <section className="card" aria-labelledby="settings-storage">
        <h2 id="settings-storage">Storage</h2>
        <StorageSettings />
      </section>
      <section className="card" aria-labelledby="settings-apps">
        <h2 id="settings-apps">Apps</h2>
        <p>Apps that use OAuth sign in with a client key you register here. You can also see and revoke the access you gave.</p>
        <Link className="button button-quiet" to="/settings/oauth/">
          Manage app access (OAuth)
        </Link>
      </section>
      <section className="card" aria-labelledby="settings-access">
        <h2 id="settings-access">Network access</h2>
        <AccessSettings />
      </section>
      <section className="card" aria-labelledby="settings-federation">
        <h2 id="settings-federation">Federation</h2>
        <FederationSettings />
      </section>
    </div>
  );
}
