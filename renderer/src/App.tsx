import { isValidElement, lazy, type ReactNode } from 'react';
import { Shell } from './layout/Shell.tsx';
import { MeProvider, useMe } from './me.tsx';
import { NoticeProvider } from './notices.tsx';
import { NotificationsProvider } from './notifications.tsx';
import { UnreadMessagesProvider } from './messages.tsx';
import { hubLinkRoute } from './pages/links/routes.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { StreamPage } from './pages/stream/StreamPage.tsx';
import { match, useLocation } from './router.tsx';
import { screenTitle, useDocumentTitle } from './pageTitles.ts';
import { SessionProvider, useChannel, useSession } from './session.tsx';
import { ErrorNote, Loading } from './components/Status.tsx';
import { LazyPage } from './components/LazyPage.tsx';

// The stream is the first screen and comes with the app; every other page is a chunk of its own,
// loaded the first time it is shown.
const ThreadPage = lazy(() => import('./pages/stream/ThreadPage.tsx').then((m) => ({ default: m.ThreadPage })));
const AlbumsPage = lazy(() => import('./pages/photos/AlbumsPage.tsx').then((m) => ({ default: m.AlbumsPage })));
const AlbumPage = lazy(() => import('./pages/photos/AlbumPage.tsx').then((m) => ({ default: m.AlbumPage })));
const FilesPage = lazy(() => import('./pages/files/FilesPage.tsx').then((m) => ({ default: m.FilesPage })));
const GroupsPage = lazy(() => import('./pages/groups/GroupsPage.tsx').then((m) => ({ default: m.GroupsPage })));
const GroupPage = lazy(() => import('./pages/groups/GroupPage.tsx').then((m) => ({ default: m.GroupPage })));
const NotificationsPage = lazy(() => import('./pages/notifications/NotificationsPage.tsx').then((m) => ({ default: m.NotificationsPage })));
const MessagesPage = lazy(() => import('./pages/messages/MessagesPage.tsx').then((m) => ({ default: m.MessagesPage })));
const ConversationPage = lazy(() => import('./pages/messages/ConversationPage.tsx').then((m) => ({ default: m.ConversationPage })));
const SearchPage = lazy(() => import('./pages/search/SearchPage.tsx').then((m) => ({ default: m.SearchPage })));
const TagPage = lazy(() => import('./pages/search/TagPage.tsx').then((m) => ({ default: m.TagPage })));
const ConnectionsPage = lazy(() => import('./pages/connections/ConnectionsPage.tsx').then((m) => ({ default: m.ConnectionsPage })));
const ConnectionPage = lazy(() => import('./pages/connections/ConnectionPage.tsx').then((m) => ({ default: m.ConnectionPage })));
const AppsPage = lazy(() => import('./pages/settings/AppsPage.tsx').then((m) => ({ default: m.AppsPage })));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage })));
const ChannelsPage = lazy(() => import('./pages/channels/ChannelsPage.tsx').then((m) => ({ default: m.ChannelsPage })));
const ImportPage = lazy(() => import('./pages/channels/ImportPage.tsx').then((m) => ({ default: m.ImportPage })));
const NewChannelPage = lazy(() => import('./pages/channels/NewChannelPage.tsx').then((m) => ({ default: m.NewChannelPage })));
const ProfilePage = lazy(() => import('./pages/channel/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })));
const LoginPage = lazy(() => import('./pages/auth/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const SetupPage = lazy(() => import('./pages/auth/SetupPage.tsx').then((m) => ({ default: m.SetupPage })));

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
      <LazyPage path={path}>{page}</LazyPage>
    </Shell>
  );
}

function Gate() {
  const { session } = useSession();
  const loggedIn = !session.setupNeeded && session.authenticated && session.channel;
  useDocumentTitle(session.setupNeeded ? 'Set up' : loggedIn ? null : 'Log in');
  if (session.setupNeeded) return <LazyPage path="/setup">{<SetupPage />}</LazyPage>;
  if (!session.authenticated || !session.channel) return <LazyPage path="/login">{<LoginPage />}</LazyPage>;
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
