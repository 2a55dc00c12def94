import type { ReactNode } from 'react';
import { Link } from '../router.tsx';
import { Bell } from './Bell.tsx';
import { MessagesButton } from './MessagesButton.tsx';
import { ChannelMenu } from './ChannelMenu.tsx';
import { Nav } from './Nav.tsx';
import { SearchForm } from '../pages/search/SearchForm.tsx';

/** The frame around every page of the logged-in UI. */
export function Shell({ path, photo, children }: { path: string; photo?: string; children: ReactNode }) {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Hearth, go to the stream">
          <span className="brand-mark" aria-hidden="true" />
          Hearth
        </Link>
        <div className="topbar-tools">
          <SearchForm className="search-form-top" />
          <MessagesButton />
          <Bell />
          <ChannelMenu photo={photo} />
        </div>
      </header>
      <div className="body">
        <Nav path={path} />
        <main id="main" className="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
