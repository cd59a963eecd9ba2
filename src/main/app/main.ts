/**
 * The Electron entry. It stays thin: it owns the window and the OS integration and wires
 * the same service the web host uses onto IPC; everything else is plain Node code.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mkdir, rm } from 'node:fs/promises';
import type { BrowserWindow } from 'electron';
import { app, ipcMain, net, screen, session } from 'electron';
import { createDispatcher } from '../bridge/dispatch';
import { EventHub, EventOutbox, type EventMessage } from '../bridge/event-outbox';
import { createService } from '../service';
import { StagedFiles } from '../service/staged-files';
import { ElectronNotifier } from './electron-notifier';
import { SafeStorageTokenStore } from './safe-storage-token-store';
import { BRIDGE_EVENT_CHANNEL } from '../../shared/contract';
import type { Destination } from '../service/navigation';
import { deepLinkFromArgv, PROTOCOL, readDeepLink } from './deep-links';
import { electronHost } from './electron-host';
import { registerIpc } from './ipc';
import { appUrlMatcher } from './sender';
import { createTray, installMenu, type TrayHandle } from './shell-integration';
import { acknowledge, INITIAL_TRAY, trayView, updateTray } from './tray-state';
import { createMainWindow, hardenSession } from './window';
import { fitToDisplays, loadWindowState, saveWindowState } from './window-state';
import { logUnhandledRejections } from '../unhandled';

const rendererIndex = join(import.meta.dirname, '../renderer/index.html');
const devUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const resources = app.isPackaged
  ? join(process.resourcesPath, 'resources')
  : join(import.meta.dirname, '../../resources');
const isAppUrl = appUrlMatcher(pathToFileURL(rendererIndex).href, devUrl);

logUnhandledRejections();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.setAsDefaultProtocolClient(PROTOCOL);
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  const windowIds = new Set<number>();
  hardenSession(session.defaultSession, {
    windowIds,
    isAppUrl,
    devOrigin: devUrl === undefined ? undefined : new URL(devUrl).origin,
  });
  const hub = new EventHub();
  const files = new StagedFiles((path) => rm(path, { force: true }));
  const dataDir = app.getPath('userData');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // It learns what protects the tokens when it first reads one (safe-storage-token-store.ts).
  const tokens = new SafeStorageTokenStore(dataDir);
  const outboxes = new Map<number, EventOutbox>();
  let mainWindow: BrowserWindow | undefined;

  const host = electronHost(() => mainWindow);
  const service = createService({
    dataDir,
    tokens,
    notifier: new ElectronNotifier(),
    files,
    host,
    emit: hub.emit.bind(hub),
  });
  await service.start();
  // Electron's main process has no online/offline event: poll, and tell the watcher.
  let online = net.isOnline();
  const onlinePoll = setInterval(() => {
    const now = net.isOnline();
    if (now !== online) {
      online = now;
      service.setNetworkAvailable(now);
    }
  }, 5_000);
  service.setNetworkAvailable(online);
  const dispatch = createDispatcher(service.handlers, {
    onInternalError: (channel, error) => {
      console.error(`Request ${channel} failed unexpectedly:`, error);
    },
  });
  registerIpc({
    ipcMain,
    dispatch,
    files,
    policy: { windowIds, isAppUrl },
    onReady: (id) => outboxes.get(id)?.markReady(),
  });

  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const savedState = await loadWindowState(stateFile);

  let trayModel = INITIAL_TRAY;
  let tray: TrayHandle | null = null;

  const showWindow = (): void => {
    if (!mainWindow || mainWindow.isDestroyed()) mainWindow = openWindow();
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  };
  // Every navigation brings the window up (the 'app.navigate' listener below), whether it
  // comes from a deep link, the tray, or a click on a notification (from the service).
  const navigate = (destination: Destination | null): void => {
    if (destination === null) return;
    service.navigate(destination).catch((error: unknown) => {
      console.warn(`Could not open the link: ${String(error)}`);
    });
  };

  function openWindow(): BrowserWindow {
    const displays = screen.getAllDisplays().map((d) => d.workArea);
    const win = createMainWindow({
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      state: fitToDisplays(savedState, displays),
      isAppUrl,
    });
    const id = win.webContents.id;
    windowIds.add(id);
    const outbox = new EventOutbox((message) => {
      if (!win.isDestroyed()) win.webContents.send(BRIDGE_EVENT_CHANNEL, message);
    });
    outboxes.set(id, outbox);
    const detach = hub.attach(outbox);
    // A reload starts a new page that has not subscribed yet: hold events for it.
    win.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) outbox.reset();
    });
    win.on('focus', () => {
      trayModel = acknowledge(trayModel);
      tray?.show(trayView(trayModel));
    });
    win.on('close', () => {
      const bounds = win.getNormalBounds();
      void saveWindowState(stateFile, { ...bounds, maximized: win.isMaximized() });
    });
    win.on('closed', () => {
      detach();
      outboxes.delete(id);
      windowIds.delete(id);
    });
    if (devUrl) void win.loadURL(devUrl);
    else void win.loadFile(rendererIndex);
    return win;
  }

  // Native notifications come from the service (CompletionRouter → ElectronNotifier). The
  // tray shows a snapshot (watch list, steps waiting for the user, connection) that is
  // refreshed, at most a few times a second, when an event says something changed.
  let connection = await service.handlers['connection.get'](undefined);
  let refreshing: NodeJS.Timeout | undefined;
  const refreshTray = (): void => {
    clearTimeout(refreshing);
    refreshing = setTimeout(() => {
      void (async () => {
        const signedIn = connection.status !== 'signed-out';
        const [watched, waiting] = await Promise.all([
          service.handlers['watch.list'](undefined).catch(() => []),
          signedIn ? service.handlers['workRequests.needsMe'](undefined).catch(() => []) : [],
        ]);
        trayModel = updateTray(trayModel, {
          online: connection.status !== 'offline',
          signedIn,
          watched,
          needsInput: waiting.length,
        });
        tray?.show(trayView(trayModel));
      })();
    }, 300);
  };
  const TRAY_EVENTS = new Set([
    'connection.state',
    'session.changed',
    'watch.changed',
    'workRequest.completed',
    'workRequests.changed',
  ]);
  hub.listen((message: EventMessage) => {
    if (message.event === 'app.navigate') showWindow();
    if (message.event === 'connection.state') {
      connection = message.payload as EventMessage<'connection.state'>['payload'];
    }
    if (TRAY_EVENTS.has(message.event)) refreshTray();
  });

  const actions = {
    showWindow,
    quit: () => {
      app.quit();
    },
    openWorkRequest: (id: number) => {
      navigate({ target: { kind: 'work-request', id }, server: null });
    },
  };
  installMenu(actions, !app.isPackaged);
  tray = createTray(resources, actions);
  tray?.show(trayView(trayModel));
  refreshTray();

  mainWindow = openWindow();
  // As the service says it of a link to a server the app does not know.
  const refusedLink = (reason: string): void => {
    host.tell?.('Nothing to open', reason);
  };
  navigate(deepLinkFromArgv(process.argv.slice(1), refusedLink));

  app.on('second-instance', (_event, argv) => {
    showWindow();
    navigate(deepLinkFromArgv(argv.slice(1), refusedLink));
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const reading = readDeepLink(url);
    if (reading.ok) navigate(reading.destination);
    else refusedLink(reading.reason);
  });
  app.on('activate', showWindow);
  app.on('before-quit', () => {
    tray?.destroy();
    clearTimeout(refreshing);
    clearInterval(onlinePoll);
    void service.close();
  });
}

// Any webContents, including ones a bug might create: no new windows, no navigation.
app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
