import { isValidElement, type ReactNode } from 'react';
import { Shell } from './layout/Shell.tsx';
import { MeProvider, useMe } from './me.tsx';
import { NoticeProvider } from './notices.tsx';
import { NotificationsProvider } from './notifications.tsx';
import { UnreadMessagesProvider } from './messages.tsx';
import { ConversationPage } from './pages/messages/ConversationPage.tsx';
import { MessagesPage } from './pages/messages/MessagesPage.tsx';
import { LoginPage } from './pages/auth/LoginPage.tsx';
import { SetupPage } from './pages/auth/SetupPage.tsx';
import { ChannelsPage } from './pages/channels/ChannelsPage.tsx';
import { ProfilePage } from './pages/channel/ProfilePage.tsx';
import { SearchPage } from './pages/search/SearchPage.tsx';
import { TagPage } from './pages/search/TagPage.tsx';
import { hubLinkRoute } from './pages/links/routes.tsx';
import { ImportPage } from './pages/channels/ImportPage.tsx';
import { NewChannelPage } from './pages/channels/NewChannelPage.tsx';
import { ConnectionPage } from './pages/connections/ConnectionPage.tsx';
import { ConnectionsPage } from './pages/connections/ConnectionsPage.tsx';
import { FilesPage } from './pages/files/FilesPage.tsx';
import { GroupPage } from './pages/groups/GroupPage.tsx';
import { GroupsPage } from './pages/groups/GroupsPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { NotificationsPage } from './pages/notifications/NotificationsPage.tsx';
import { AlbumPage } from './pages/photos/AlbumPage.tsx';
import { AlbumsPage } from './pages/photos/AlbumsPage.tsx';
import { AppsPage } from './pages/settings/AppsPage.tsx';
import { SettingsPage } from './pages/settings/SettingsPage.tsx';
import { StreamPage } from './pages/stream/StreamPage.tsx';
import { ThreadPage } from './pages/stream/ThreadPage.tsx';
import { match, useLocation } from './router.tsx';
import { screenTitle, useDocumentTitle } from './pageTitles.ts';
import { SessionProvider, useChannel, useSession } from './session.tsx';
import { ErrorNote, Loading } from './components/Status.tsx';

function route(path: string, query: URLSearchParams, nick: string): ReactNode {
  let m: Record<string, string> | undefined;
  if (path === '/' || path === '/stream' || path === '/compose') return <StreamPage />;
  if ((m = match('/item/:id', path))) return <ThreadPage id={Number(m.id)} />;
  if (path === '/photos' || path === '/photos/') return <AlbumsPage />;
  if ((m = match('/photos/album/:album', path))) return <AlbumPage album={m.album!} photoId={query.get('photo') ?? undefined} />;
  if (path === '/files' || path === '/files/') return <FilesPage />;
  if ((m = match('/files/:folder', path))) return <FilesPage key={m.folder} folder={m.folder!} />;
  if (path === '/groups' || path === '/groups/') return <GroupsPage />;
  if ((m = match('/groups/:gid', path))) return <GroupPage gid={m.gid!} />;
  if (path === '/notifications') return <NotificationsPage />;
  if (path === '/messages' || path === '/messages/') return <MessagesPage />;
  if ((m = match('/messages/:nick', path))) return <ConversationPage key={m.nick} nick={m.nick!} />;
  if (path === '/search' || path === '/search/') return <SearchPage />;
  if ((m = match('/tags/:tag', path))) return <TagPage key={m.tag} tag={m.tag!} />;
  if (path === '/connections' || path === '/connections/') return <ConnectionsPage connect={query.get('connect') ?? undefined} />;
  if ((m = match('/connections/:abookId', path))) return <ConnectionPage abookId={m.abookId!} />;
  if (match('/settings/oauth', path)) return <AppsPage />;
  if (path === '/settings' || path.startsWith('/settings/')) return <SettingsPage />;
  if (path === '/channels') return <ChannelsPage />;
  if (path === '/channels/import') return <ImportPage />;
  if (path === '/channels/new') return <NewChannelPage />;
  const link = hubLinkRoute(path, query, nick);
  if (link) return link;
  if ((m = match('/channel/:nick', path))) return <ProfilePage key={m.nick} nick={m.nick!} />;
  return <NotFoundPage />;
}

function LoggedIn() {
  const { path, query } = useLocation();
  const { me, photo } = useMe();
  const channel = useChannel();
  const page = route(path, query, channel.nick);
  useDocumentTitle(isValidElement(page) && page.type === NotFoundPage ? 'Not found' : screenTitle(path));
  return (
    <Shell path={path} photo={photo(me?.profile_image_url)}>
      {page}
    </Shell>
  );
}

function Gate() {
  const { session } = useSession();
  const loggedIn = !session.setupNeeded && session.authenticated && session.channel;
  useDocumentTitle(session.setupNeeded ? 'Set up' : loggedIn ? null : 'Log in');
  if (session.setupNeeded) return <SetupPage />;
  if (!session.authenticated || !session.channel) return <LoginPage />;
  // Keyed by channel so that switching channels starts every page afresh.
  return (
    <NotificationsProvider key={session.channel.nick}>
      <UnreadMessagesProvider>
        <MeProvider>
          <LoggedIn />
        </MeProvider>
      </UnreadMessagesProvider>
    </NotificationsProvider>
  );
}

export function App() {
  return (
    <NoticeProvider>
      <SessionProvider
        fallback={(error, retry) => (
          <main className="auth">
            <div className="auth-card">{error ? <ErrorNote error={error} onRetry={retry} /> : <Loading label="Opening Hearth…" />}</div>
          </main>
        )}
      >
        <Gate />
      </SessionProvider>
    </NoticeProvider>
  );
}
