/**
 * The Electron entry. It stays thin: it owns the window and the OS integration and wires
 * the same service the web host uses onto IPC; everything else is plain Node code.
 */
import { join } from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import type { BrowserWindow } from 'electron';
import { app, dialog, ipcMain, net, protocol, screen, session } from 'electron';
import { createDispatcher } from '../bridge/dispatch';
import { CallerScope } from '../bridge/caller';
import { EventHub, EventOutbox, type EventMessage } from '../bridge/event-outbox';
import { UnackedEvents } from '../bridge/unacked-events';
import { createService } from '../composition-root';
import { StagedFiles } from '../service/staged-files';
import { ElectronNotifier } from './electron-notifier';
import { SafeStorageTokenStore } from './safe-storage-token-store';
import { BRIDGE_EVENT_CHANNEL } from '../../shared/contract';
import type { Destination } from '../service/navigation';
import type { Dispatch } from '../bridge/dispatch';
import { installAppImageEntry } from './appimage-entry';
import { APP_ID } from './identity';
import { PROTOCOL } from '../service/deep-links';
import { LaunchLinks } from './launch-links';
import { electronHost } from './electron-host';
import { registerIpc } from './ipc';
import { appUrlMatcher } from './sender';
import { APP_INDEX_URL, registerAppScheme, serveApp } from './app-protocol';
import { refuseUnsandboxed } from './sandbox-check';
import { createTray, installMenu, type TrayHandle } from './shell-integration';
import { acknowledge, INITIAL_TRAY, trayView, updateTray } from './tray-state';
import { TRAY_EVENTS, trayRefresher, type TrayRefresher } from './tray-refresh';
import { STUCK_TTL_MS } from '../service/queue';
import { createMainWindow, hardenSession } from './window';
import { fitToDisplays, loadWindowState, saveWindowState } from './window-state';
import { logUnhandledRejections } from '../unhandled';
import { closeWithin, RelaunchWhileQuitting } from './quit';
import { reconnectOnResume } from './resume';
import { addressSignature, watchNetwork } from './network-watch';
import { logChildProcessesGone, recoverWindow } from './window-recovery';

const rendererDir = join(import.meta.dirname, '../renderer');
const devUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const resources = app.isPackaged
  ? join(process.resourcesPath, 'resources')
  : join(import.meta.dirname, '../../resources');
/** The app's icon: the window's, and the one an AppImage copies out for its desktop entry. */
const icon = join(resources, 'icon.png');
const isAppUrl = appUrlMatcher(APP_INDEX_URL, devUrl);
// The page's scheme (app-protocol.ts), which Electron takes only before `ready`.
registerAppScheme(protocol);

logUnhandledRejections();

// Listened to from the first line: Electron emits these as soon as it can (macOS's
// open-url even before `ready`), an event nobody listens to yet is lost, and start() has
// many awaits before it could listen. What arrives before the app can show it waits.
const links = new LaunchLinks();
links.fromArgv(process.argv.slice(1), false);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  const relaunch = new RelaunchWhileQuitting(app);
  app.on('second-instance', (_event, argv) => {
    if (!relaunch.take(argv)) links.fromArgv(argv.slice(1), true);
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    links.fromUrl(url);
  });
  app.whenReady().then(start).catch(failedToStart);
}

/**
 * A start that fails leaves no window, so nothing would ever quit the app, and the process
 * would keep the single-instance lock: every later launch would hand its arguments over to
 * it and exit. Say why, and end.
 */
function failedToStart(error: unknown): void {
  console.error('Debusine Desktop could not start:', error);
  const message = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox('Debusine Desktop could not start', message);
  app.releaseSingleInstanceLock();
  app.exit(1);
}

async function start(): Promise<void> {
  if (refuseUnsandboxed(app, dialog)) return;
  const windowIds = new Set<number>();
  hardenSession(session.defaultSession, {
    windowIds,
    isAppUrl,
    devOrigin: devUrl === undefined ? undefined : new URL(devUrl).origin,
  });
  serveApp(session.defaultSession.protocol, rendererDir);
  const hub = new EventHub();
  const files = new StagedFiles((path) => rm(path, { force: true }));
  const dataDir = app.getPath('userData');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // It learns what protects the tokens when it first reads one, which may wait for the
  // keyring to be unlocked; the window opens meanwhile.
  const tokens = new SafeStorageTokenStore(dataDir);
  const outboxes = new Map<number, EventOutbox>();
  /** What each window's page was sent and has not taken yet (bridge/unacked-events.ts). */
  const unacked = new Map<number, UnackedEvents>();
  /** The page in each window, which holds what it opened. */
  const callers = new Map<number, CallerScope>();
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

  let trayModel = INITIAL_TRAY;
  let tray: TrayHandle | null = null;
  let savingState: Promise<void> = Promise.resolve();
  // Set by the listeners below, read after awaits: an object, so that the reads are not
  // narrowed to the values before the awaits.
  const life = { quitting: false, closed: false };
  const timers: { onlinePoll?: NodeJS.Timeout } = {};
  const trayHolder: { updates?: TrayRefresher } = {};
  // A call, not a read of `life.quitting`, which TypeScript would keep narrowed across awaits.
  const quitting = (): boolean => life.quitting;

  // Electron does not wait for a promise a `before-quit` listener returns: quitting goes
  // on, and the process ends with uploads mid-request and files mid-write. So the first
  // quit is held back until the service has closed (uploads paused where the server can
  // resume them, every file written), or for at most QUIT_WAIT_MS (quit.ts), and then asked
  // again.
  app.on('before-quit', (event) => {
    if (life.closed) return;
    event.preventDefault();
    if (life.quitting) return;
    life.quitting = true;
    trayHolder.updates?.stop();
    tray?.destroy();
    tray = null;
    clearInterval(timers.onlinePoll);
    void closeWithin(async () => {
      if (mainWindow && !mainWindow.isDestroyed()) saveState(mainWindow);
      await savingState;
      await service.close();
    }).then(() => {
      life.closed = true;
      app.quit();
    });
  });

  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const saveState = (win: BrowserWindow): void => {
    const state = { ...win.getNormalBounds(), maximized: win.isMaximized() };
    savingState = savingState
      .then(() => saveWindowState(stateFile, state))
      .catch((error: unknown) => {
        console.warn(`Could not save the window's place: ${String(error)}`);
      });
  };

  // The service's start reads the tokens (and may wait for the keyring): the window opens
  // first, and requests wait for the start.
  const starting = service.start();
  const dispatchStarted = createDispatcher(service.handlers, {
    onInternalError: (channel, error) => {
      console.error(`Request ${channel} failed unexpectedly:`, error);
    },
  });
  const dispatch: Dispatch = async (channel, args, caller) => {
    await starting;
    return dispatchStarted(channel, args, caller);
  };
  registerIpc({
    ipcMain,
    dispatch,
    files,
    policy: { windowIds, isAppUrl },
    callerOf: (id) => callers.get(id),
    onReady: (id) => outboxes.get(id)?.markReady(),
    onAck: (id, count) => {
      unacked.get(id)?.ack(count);
    },
  });

  const savedState = await loadWindowState(stateFile);

  const showWindow = (): void => {
    if (life.quitting) return;
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
      icon,
      isAppUrl,
    });
    recoverWindow(win);
    const id = win.webContents.id;
    windowIds.add(id);
    // A page that stops taking its events is reloaded rather than sent more: what it missed
    // it reads anew once loaded, as any page does.
    const owed = new UnackedEvents(() => {
      console.warn('The window stopped taking its events: it is reloaded.');
      if (!win.isDestroyed()) win.webContents.reload();
    });
    unacked.set(id, owed);
    const outbox = new EventOutbox((message) => {
      if (!win.isDestroyed() && owed.admit(message)) {
        win.webContents.send(BRIDGE_EVENT_CHANNEL, message);
      }
    });
    outboxes.set(id, outbox);
    const detach = hub.attach(outbox);
    // What the page opens is its own (bridge/caller.ts), and goes with it.
    const newCaller = (): CallerScope =>
      new CallerScope((event, payload) => {
        outbox.push(event, payload);
      });
    callers.set(id, newCaller());
    // A reload starts a new page that has not subscribed yet: hold events for it, and
    // release what the page before it held.
    win.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) {
        outbox.reset();
        owed.reset();
        void callers.get(id)?.close();
        callers.set(id, newCaller());
      }
    });
    win.on('focus', () => {
      trayModel = acknowledge(trayModel);
      tray?.show(trayView(trayModel));
    });
    win.on('close', () => {
      // When quitting, the quit saved it already and waits for nothing more.
      if (!life.quitting) saveState(win);
    });
    win.on('closed', () => {
      void callers.get(id)?.close();
      callers.delete(id);
      detach();
      outboxes.delete(id);
      unacked.delete(id);
      windowIds.delete(id);
    });
    if (devUrl) void win.loadURL(devUrl);
    else void win.loadURL(APP_INDEX_URL);
    return win;
  }

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
  mainWindow = openWindow();

  await starting;
  if (life.quitting) return;

  timers.onlinePoll = watchNetwork({
    isOnline: () => net.isOnline(),
    addresses: () => addressSignature(),
    availability: (online) => {
      service.setNetworkAvailable(online);
    },
    moved: () => {
      console.log('The network changed: reconnecting.');
      service.reconnect();
    },
  });
  reconnectOnResume(() => {
    service.reconnect();
  });

  // Native notifications come from the service (CompletionRouter → ElectronNotifier). The
  // tray shows a snapshot (watch list, steps waiting for the user, connection) that is
  // refreshed, at most a few times a second, when an event says something changed.
  let connection = await service.handlers['connection.get'](undefined, service.own);
  const updates = trayRefresher({
    read: async () => {
      const signedIn = connection.status !== 'signed-out';
      const [watched, waiting, stuck] = await Promise.all([
        service.handlers['watch.list'](undefined, service.own).catch(() => []),
        signedIn
          ? service.handlers['workRequests.needsMe'](undefined, service.own).catch(() => [])
          : [],
        signedIn ? service.handlers['queue.stuck'](undefined, service.own).catch(() => null) : null,
      ]);
      return {
        online: connection.status !== 'offline',
        signedIn,
        watched,
        needsInput: waiting.length,
        cannotStart: stuck?.architectures ?? [],
      };
    },
    show: (snapshot) => {
      trayModel = updateTray(trayModel, snapshot);
      tray?.show(trayView(trayModel));
    },
    delayMs: 300,
  });
  trayHolder.updates = updates;
  // No event says that a worker connected or went away: the work that cannot start is read
  // again each time its answer may have aged (a stopped refresher ignores the ticks).
  setInterval(() => {
    updates.refresh();
  }, STUCK_TTL_MS).unref();
  // A quit while the connection was read: the refresher is stopped from the start.
  if (quitting()) updates.stop();
  hub.listen((message: EventMessage) => {
    if (message.event === 'app.navigate') showWindow();
    if (message.event === 'connection.state') {
      connection = message.payload as EventMessage<'connection.state'>['payload'];
    }
    if (TRAY_EVENTS.has(message.event)) updates.refresh();
  });

  tray = createTray(resources, actions);
  tray?.show(trayView(trayModel));
  updates.refresh();

  app.on('activate', showWindow);
  links.attach({
    open: navigate,
    // As the service says it of a link to a server the app does not know.
    refuse: (reason) => host.tell?.('Nothing to open', reason),
    show: showWindow,
  });
  await registerScheme();
}

/**
 * Asks to be the handler of `debusine-desktop:` links. An AppImage first writes the
 * desktop entry that asking needs (appimage-entry.ts); a failure is no reason to stop.
 */
async function registerScheme(): Promise<void> {
  if (process.platform === 'linux') {
    const outcome = await installAppImageEntry(process.env, PROTOCOL, icon).catch(
      (error: unknown) => {
        console.warn(`Could not write the AppImage's desktop entry: ${String(error)}`);
        return 'failed';
      },
    );
    if (outcome === 'not-ours') {
      console.warn('A desktop entry named debusine-desktop.desktop is there already: kept');
    }
  }
  if (!app.setAsDefaultProtocolClient(PROTOCOL)) {
    console.warn(
      `Could not register as the handler of ${PROTOCOL}: links: they will not open the app`,
    );
  }
}

// Any webContents, including ones a bug might create: no new windows, no navigation.
app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
});

logChildProcessesGone();

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
