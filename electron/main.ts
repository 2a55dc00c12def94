// Hearth's Electron main process: runs the hub in-process and shows it in a window, with a tray
// menu and native notifications. Everything that can be tested without Electron lives in ./lib.
//
// How the TypeScript server is loaded: scripts/build-electron.js compiles electron/ and server/
// with `tsc -p electron/tsconfig.json` into dist/app/ (mirroring the repository: dist/app/electron,
// dist/app/server) and copies next to them what the server reads relative to its own files (the
// SQL migrations, and the built renderer as dist/app/dist/renderer, which server/web/ui.ts looks
// for two levels up). Registering tsx here instead would need a compiler and esbuild's native
// binary at run time, and that binary cannot be executed from inside the packaged app.asar.
import { app, BrowserWindow, dialog, Menu, nativeImage, Notification, powerMonitor, session, shell, Tray, type NativeImage, type WebContents } from 'electron';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moveOlderDesktopData } from '../server/data-dir-move.js';
import { useNativeBuildsFrom } from '../server/db/native-binding.js';
import type { Logger } from '../server/hub.js';
import { defaultDataDir } from '../server/paths.js';
import type { LastBackup } from '../server/backup/service.js';
import { createChannel } from '../server/services/channels.js';
import { countChannels } from '../server/store/channels.js';
import { backupNotice } from './lib/backup-notice.js';
import { startDesktopHub } from './lib/desktop-hub.js';
import { applyLanAccess, type LanState } from './lib/lan.js';
import { lanPageHtml } from './lib/lan-page.js';
import { openLogFile, teeLogger } from './lib/log-file.js';
import { appOrigins, loginUrl } from './lib/login-handoff.js';
import { decideNavigation } from './lib/navigation.js';
import type { DesktopNotice } from './lib/notice.js';
import { NotificationWatcher } from './lib/notification-watcher.js';
import { SettingsStore } from './lib/settings.js';
import { createShutdown } from './lib/shutdown.js';
import { checkDesktop, isSmokeRun, SmokeRun, type SmokePage } from './lib/smoke.js';
import { reportStartupFailure } from './lib/startup-failure.js';
import { trayMenuTemplate, trayTooltip, type TrayState } from './lib/tray-menu.js';

const APP_ID = 'org.hearth.desktop';
const smoke = isSmokeRun();

// The same place in development (`electron .`, where the name would be "hearth") and when packaged.
// A smoke run gets a throwaway one: it must not touch the owner's data, nor defer to a running Hearth.
app.setPath('userData', smoke ? mkdtempSync(join(tmpdir(), 'hearth-smoke-')) : join(app.getPath('appData'), 'Hearth'));
app.setAppUserModelId(APP_ID);

const logFile = openLogFile(join(app.getPath('userData'), 'hearth.log'));
const log: Logger = teeLogger(logFile, {
  info: (...a) => console.log(...a),
  warn: (...a) => console.warn(...a),
  error: (...a) => console.error(...a),
});
// The hub's data: the folder `hearth` and `npm start`'s headless fallback use too (DESIGN.md, Naming).
// Older versions kept it in the user-data folder's `hub`, which moves there at the first start.
const olderDataDir = join(app.getPath('userData'), 'hub');
const dataDir = smoke ? olderDataDir : defaultDataDir();

// better-sqlite3's build for this Electron (scripts/native.js): shipped in the installers'
// resources folder, and in the checkout's native/ folder under `npm start`. sharp and koffi, the
// other native modules the main process loads, need no such build: both are Node-API addons
// (see server/services/images.ts and server/util/allocator.ts).
useNativeBuildsFrom(join(app.isPackaged ? process.resourcesPath : app.getAppPath(), 'native'));

// Set once the hub runs: a smoke run closes it before quitting.
let closeHub = async (): Promise<void> => {};
let smokeEnded = false;
/** Ends a smoke run: its line on stdout or stderr, the hub closed, the throwaway folder removed. */
function endSmoke(outcome: { code: number; line?: string }): void {
  if (smokeEnded) return;
  smokeEnded = true;
  if (outcome.line) (outcome.code === 0 ? process.stdout : process.stderr).write(outcome.line + '\n');
  void closeHub()
    .catch(() => {})
    .finally(() => {
      try {
        rmSync(app.getPath('userData'), { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // Chromium may still hold files there (Windows); it is a temporary folder all the same.
      }
      app.exit(outcome.code);
    });
}
const smokeRun = smoke ? new SmokeRun(endSmoke) : undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  await run().catch((err: unknown) => {
    const code = reportStartupFailure(err, { dataDir, packaged: app.isPackaged, smoke }, logFile, {
      showMessageBox: (options) => (app.isReady() ? dialog.showMessageBoxSync(options) : (dialog.showErrorBox(options.message, options.detail), 0)),
      openPath: (path) => void shell.openPath(path),
      writeStderr: (text) => process.stderr.write(text),
    });
    // In smoke mode the report went to stderr.
    if (smoke) endSmoke({ code });
    else void closeHub().catch(() => {}).finally(() => app.exit(code));
  });
}

async function run(): Promise<void> {
  let mainWindow: BrowserWindow | undefined;
  let quitting = false;
  let started = false;
  // A second launch shows this instance's window (once the hub is up; before that it is on its way).
  app.on('second-instance', () => {
    if (started) showWindow();
  });
  app.on('window-all-closed', () => {
    // Hearth keeps running in the tray: other devices and notifications depend on the hub.
  });

  const move = smoke || process.env.HEARTH_DATA ? { outcome: 'nothing' as const } : moveOlderDesktopData(dataDir, olderDataDir);
  if (move.outcome === 'moved') log.info(`moved the hub's data from ${move.from} to ${dataDir}${move.leftBehind.length ? ` (left there: ${move.leftBehind.join(', ')})` : ''}`);
  await app.whenReady();
  if (move.outcome === 'left') {
    const detail = `${move.from} has a hub from an older Hearth; it was not moved to ${dataDir}, the data folder Hearth uses now, because ${move.reason}. Hearth opens ${dataDir}; to open the older one, start Hearth with HEARTH_DATA=${move.from}.`;
    log.warn(detail);
    void dialog.showMessageBox({ type: 'warning', message: 'An older Hearth data folder was not moved', detail });
  }
  const icons = join(app.getAppPath(), 'build', 'icons');
  const appIcon = nativeImage.createFromPath(join(icons, '512x512.png'));
  const settings = new SettingsStore(join(app.getPath('userData'), 'settings.json'));
  const { hub, lan } = await startDesktopHub({ dataDir, settings, log });
  closeHub = () => hub.close();
  log.info(`Hearth hub at ${hub.baseUrl}/ (data: ${dataDir})`);
  // A smoke run's hub is new; with a channel the window goes through the login handoff to the UI.
  if (smoke && countChannels(hub.db) === 0) await createChannel(hub.db, { baseUrl: hub.baseUrl }, { nick: 'smoke', name: 'Smoke test', password: randomBytes(18).toString('base64url') });

  const tray: TrayState = { unseen: 0, lan };
  const notices = new Set<Notification>();
  const watcher = new NotificationWatcher({
    db: hub.db,
    events: hub.events,
    notify: showNotice,
    onUnseenCount(count) {
      tray.unseen = count;
      app.setBadgeCount(count);
      refreshTray();
    },
    log,
  });

  const shutdown = createShutdown(hub, { before: [() => watcher.stop()], log });
  closeHub = () => shutdown.run();
  const quitCleanly = () => {
    quitting = true;
    void shutdown.run().then(() => app.quit());
  };
  app.on('before-quit', (event) => {
    quitting = true;
    if (shutdown.finished) return;
    event.preventDefault();
    quitCleanly();
  });
  powerMonitor.on('shutdown', (...args: unknown[]) => {
    // Delays the OS shutdown until the hub is closed (Linux, macOS).
    (args[0] as { preventDefault?: () => void } | undefined)?.preventDefault?.();
    quitCleanly();
  });
  process.on('SIGTERM', quitCleanly);
  process.on('SIGINT', quitCleanly);

  guardSession();
  const trayIcon = new Tray(trayImage(icons));
  trayIcon.on('click', () => showWindow());
  watcher.start();
  // Backups on the owner's schedule (Settings → Backups); a failed one is told at once.
  hub.events.on('backup', (outcome: LastBackup) => {
    const notice = backupNotice(outcome);
    if (!notice || !Notification.isSupported()) return;
    const n = new Notification({ title: notice.title, body: notice.body, icon: appIcon });
    n.on('click', () => showWindow(loginUrl(hub, { path: '/settings/backups' })));
    notices.add(n);
    n.on('close', () => notices.delete(n));
    n.show();
  });
  if (!smoke) hub.backups.startSchedule();
  refreshTray();
  mainWindow = createMainWindow(loginUrl(hub));
  started = true;
  app.on('activate', () => showWindow());
  if (smokeRun) void checkDesktop(smokeRun, smokePage(mainWindow.webContents), hub.baseUrl);

  function createMainWindow(url: string): BrowserWindow {
    const win = new BrowserWindow({
      width: 1100,
      height: 800,
      minWidth: 420,
      minHeight: 400,
      title: 'Hearth',
      icon: appIcon,
      show: false,
      autoHideMenuBar: true,
      backgroundColor: '#fbf8f4',
      webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true },
    });
    guardContents(win.webContents, () => appOrigins(hub));
    win.once('ready-to-show', () => win.show());
    win.on('close', (event) => {
      if (quitting) return;
      event.preventDefault();
      win.hide();
    });
    // Windows gives no way to delay a log-off; start closing at once.
    win.on('session-end', () => quitCleanly());
    void win.loadURL(url);
    return win;
  }

  function showWindow(url?: string): void {
    if (!mainWindow || mainWindow.isDestroyed()) {
      if (app.isReady() && !quitting) mainWindow = createMainWindow(url ?? loginUrl(hub));
      return;
    }
    if (url) void mainWindow.loadURL(url);
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  }

  function showNotice(notice: DesktopNotice): void {
    if (!Notification.isSupported()) return;
    const n = new Notification({ title: notice.title, body: notice.body, icon: appIcon });
    // Kept referenced until dismissed: a collected Notification loses its click handler.
    notices.add(n);
    if (notices.size > 20) notices.delete(notices.values().next().value!);
    n.on('click', () => {
      notices.delete(n);
      showWindow(loginUrl(hub, { channelId: notice.channelId, path: notice.path }));
    });
    n.on('close', () => notices.delete(n));
    n.show();
  }

  let lanChange = Promise.resolve();
  function setLanAccess(on: boolean): void {
    lanChange = lanChange.then(async () => {
      settings.update({ lanAccess: on });
      tray.lan = await applyLanAccess(hub, on);
      refreshTray();
      if (tray.lan.on) await showLanAddress();
      else if (on && tray.lan.problem) await dialog.showMessageBox({ type: 'warning', message: 'LAN access is off', detail: tray.lan.problem });
    }).catch((err: unknown) => log.error('changing LAN access failed:', err));
  }

  let lanWindow: BrowserWindow | undefined;
  async function showLanAddress(): Promise<void> {
    const state: LanState = tray.lan;
    if (!state.on || !state.url) return;
    const html = await lanPageHtml(state.url);
    if (!lanWindow || lanWindow.isDestroyed()) {
      lanWindow = new BrowserWindow({
        width: 380,
        height: 560,
        resizable: false,
        title: 'Hearth on your network',
        icon: appIcon,
        autoHideMenuBar: true,
        webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true, javascript: false },
      });
      guardContents(lanWindow.webContents, () => []);
    }
    await lanWindow.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    lanWindow.show();
    lanWindow.focus();
  }

  function refreshTray(): void {
    if (trayIcon.isDestroyed()) return;
    trayIcon.setToolTip(trayTooltip(tray));
    trayIcon.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate(tray, {
          open: () => showWindow(),
          openNotifications: () => showWindow(loginUrl(hub, { path: '/notifications' })),
          setLanAccess,
          showLanAddress: () => void showLanAddress(),
          quit: () => app.quit(),
        }),
      ),
    );
  }

  /** Keeps a window on the hub: other web pages open in the browser, nothing else opens at all. */
  function guardContents(contents: WebContents, origins: () => string[]): void {
    const route = (url: string, event?: { preventDefault(): void }): void => {
      const decision = decideNavigation(url, origins());
      if (decision === 'allow') return;
      event?.preventDefault();
      if (decision === 'external') void shell.openExternal(url);
    };
    contents.on('will-navigate', (event) => route(event.url, event));
    contents.on('will-redirect', (event) => route(event.url, event));
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const decision = decideNavigation(url, origins());
      if (decision === 'allow' && contents === mainWindow?.webContents) void mainWindow.loadURL(url);
      else if (decision === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
  }

  /** The hub's pages need no camera, location or other browser permission. */
  function guardSession(): void {
    const allowed = new Set(['clipboard-sanitized-write', 'fullscreen']);
    const ses = session.defaultSession;
    ses.setPermissionRequestHandler((_contents, permission, callback) => callback(allowed.has(permission)));
    ses.setPermissionCheckHandler((_contents, permission) => allowed.has(permission));
  }
}

/** The window's contents as the smoke check looks at them. */
function smokePage(contents: WebContents): SmokePage {
  return {
    loaded: () =>
      new Promise<void>((resolve, reject) => {
        if (!contents.isLoading() && contents.getURL()) return resolve();
        contents.once('did-finish-load', () => resolve());
        contents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
          // -3 (ERR_ABORTED) is a navigation replaced by another one, such as a redirect.
          if (isMainFrame && code !== -3) reject(new Error(`the window could not load ${url}: ${description} (${code})`));
        });
        contents.once('render-process-gone', (_event, details) => reject(new Error(`the window's renderer process ended: ${details.reason}`)));
      }),
    url: () => contents.getURL(),
    evaluate: <T>(script: string) => contents.executeJavaScript(script) as Promise<T>,
  };
}

function trayImage(icons: string): NativeImage {
  // macOS wants a monochrome template image; the others a coloured one. @2x variants load by themselves.
  const image = nativeImage.createFromPath(join(icons, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'));
  if (process.platform === 'darwin') image.setTemplateImage(true);
  return image;
}
