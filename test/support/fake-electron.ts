/**
 * A fake `electron` for the main process, for tests that load the shell's modules (and
 * main.ts itself) where Electron's binary cannot run. It does what Electron 45 does where
 * the shell depends on it, and each such behaviour quotes the sentence of Electron's own
 * documentation (electron.d.ts, generated from it, ships in node_modules/electron) or
 * names the source it follows. Everything else is recorded for the test to look at.
 *
 * A test mocks `electron` with `electronModule(() => current)` and drives `current`.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Listener = (...args: unknown[]) => void;

/** RenderProcessGoneDetails.reason, as electron.d.ts lists it. */
export type RenderProcessGoneReason =
  | 'clean-exit'
  | 'abnormal-exit'
  | 'killed'
  | 'crashed'
  | 'oom'
  | 'launch-failed'
  | 'integrity-failure'
  | 'memory-eviction';

export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

export function deferred(): Deferred {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export interface FakeElectronOptions {
  /** app.getPath('userData'). */
  userData: string;
  /** Whether a Secret Service answers on the session bus (GNOME Keyring, KWallet). */
  keyring?: boolean;
  /** What getSelectedStorageBackend() guesses from the desktop, whatever runs. */
  desktopBackend?: string;
  /** Resolved when the async encryptor is ready (a keyring may take a while, or prompt). */
  keyringReady?: Promise<void>;
  /** Where xdg-settings looks for .desktop entries (the user's applications folders). */
  applicationDirs?: string[];
  /** Another instance holds the single-instance lock. */
  lockHeldElsewhere?: boolean;
  /**
   * The keyring answers but is locked: decrypting what its key made fails as "temporarily
   * unavailable" until a test sets `keyring.locked` to false.
   */
  keyringLocked?: boolean;
  /** Whether a notification server answers (Notification.isSupported()); true by default. */
  notificationsSupported?: boolean;
}

export class FakeWebContents extends EventEmitter {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  /** How many times the page was reloaded. */
  reloads = 0;
  url = '';
  openHandler: Listener | undefined;
  constructor(readonly id: number) {
    super();
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: Listener): void {
    this.openHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
  /**
   * The page asks to go to `url` (a link, `location.href`): `will-navigate`, "Emitted when
   * a user or the page wants to start navigation on the main frame." Returns whether the
   * app prevented it.
   */
  tryNavigate(url: string): boolean {
    const event = Object.assign(new FakeEvent(), { url, isMainFrame: true });
    this.emit('will-navigate', event, url);
    return event.defaultPrevented;
  }
  /** The page's renderer process is gone (until a reload starts a new one). */
  crashed = false;
  /** How many times forcefullyCrashRenderer() was called. */
  forcedCrashes = 0;
  isCrashed(): boolean {
    return this.crashed;
  }
  /**
   * The renderer process ends. electron_api_web_contents.cc emits `render-process-gone`
   * from a posted task, not while Chromium is still telling its observers ("Emit
   * asynchronously so app code (e.g. a synchronous reload() in the handler) can't
   * re-launch the renderer from inside that loop"), with `details.reason` and
   * `details.exitCode`. Resolves once the event was emitted.
   */
  processGone(reason: RenderProcessGoneReason, exitCode = reason === 'clean-exit' ? 0 : 1) {
    this.crashed = true;
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        this.emit('render-process-gone', new FakeEvent(), { reason, exitCode });
        resolve();
      });
    });
  }
  /**
   * "Forcefully terminates the renderer process that is currently hosting this
   * `webContents`. This will cause the `render-process-gone` event to be emitted with the
   * `reason=killed || reason=crashed`." On Linux it asks the renderer to crash
   * (`rph->ForceCrash()`): `crashed`.
   */
  forcefullyCrashRenderer(): void {
    this.forcedCrashes++;
    void this.processGone('crashed');
  }
  /**
   * "Emitted when the web page becomes unresponsive." Electron emits it only for a page
   * that is visible and whose renderer has started (lib/browser/api/web-contents.ts:
   * `event.visible && event.rendererInitialized`): a test calls this for such a page.
   */
  becomeUnresponsive(): void {
    this.emit('unresponsive', new FakeEvent());
  }
  /** "Emitted when the unresponsive web page becomes responsive again." */
  becomeResponsive(): void {
    this.emit('responsive', new FakeEvent());
  }
  /**
   * "Reloads the current web page." The new document's navigation starts in the main
   * frame ("Emitted when any frame (including main) starts navigating"), and its page has
   * not run its script yet: it says it is ready when the test sends BRIDGE_READY_CHANNEL.
   * A reload of a page whose renderer is gone starts a new renderer.
   */
  reload(): void {
    this.reloads++;
    this.crashed = false;
    this.emit('did-start-navigation', {
      url: this.url,
      isSameDocument: false,
      isMainFrame: true,
      frame: null,
    });
  }
}

/** What the app and its windows share in one fake. */
interface Context {
  windows: FakeBrowserWindow[];
  nextId: number;
  quitting: boolean;
  exited(): boolean;
  allClosed(): void;
  /** A webContents was made (the app's `web-contents-created`). */
  contentsCreated(contents: FakeWebContents): void;
}

export class FakeBrowserWindow extends EventEmitter {
  readonly id: number;
  readonly webContents: FakeWebContents;
  visible: boolean;
  maximized = false;
  destroyed = false;
  /** How the window first became visible: by show(), or by maximize(). */
  shownBy: 'show' | 'maximize' | null = null;
  loaded: string | null = null;
  readonly #context: Context;
  constructor(
    context: Context,
    readonly options: Record<string, unknown>,
  ) {
    super();
    this.#context = context;
    this.id = context.nextId++;
    this.webContents = new FakeWebContents(this.id);
    this.visible = options.show !== false;
    context.windows.push(this);
    context.contentsCreated(this.webContents);
  }
  show(): void {
    if (!this.visible) this.shownBy ??= 'show';
    this.visible = true;
  }
  // "Maximizes the window. This will also show (but not focus) the window if it isn't
  // being displayed already."
  maximize(): void {
    this.maximized = true;
    if (!this.visible) this.shownBy ??= 'maximize';
    this.visible = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {
    return undefined;
  }
  focus(): void {
    return undefined;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    const { x = 0, y = 0, width = 800, height = 600 } = this.options as Record<string, number>;
    return { x, y, width, height };
  }
  loadURL(url: string): Promise<void> {
    this.loaded = url;
    this.webContents.url = url;
    return Promise.resolve();
  }
  loadFile(path: string): Promise<void> {
    return this.loadURL(`file://${path}`);
  }
  close(): void {
    if (this.destroyed) return;
    const event = new FakeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    const windows = this.#context.windows;
    this.destroyed = true;
    windows.splice(windows.indexOf(this), 1);
    this.emit('closed');
    if (windows.length === 0 && !this.#context.quitting && !this.#context.exited()) {
      this.#context.allClosed();
    }
  }
}

export class FakeTray extends EventEmitter {
  destroyed = false;
  readonly tooltips: string[] = [];
  // Electron's Tray methods throw "Tray is destroyed" once destroy() was called
  // (shell/browser/api/electron_api_tray.cc, CheckAlive).
  #alive(): void {
    if (this.destroyed) throw new TypeError('Tray is destroyed');
  }
  setImage(): void {
    this.#alive();
  }
  setToolTip(text: string): void {
    this.#alive();
    this.tooltips.push(text);
  }
  setContextMenu(): void {
    this.#alive();
  }
  // "Destroys the tray icon immediately."
  destroy(): void {
    this.destroyed = true;
  }
}

/**
 * A notification on the desktop, as the notification server holds it: what it shows, and a
 * weak reference to the JavaScript object the app made. Electron's native notification
 * does not keep that object alive: once nothing in the app references it, the garbage
 * collector takes it with its listeners, and a click on the notification still on screen
 * reaches nobody.
 */
export class DesktopNotificationEntry {
  closed = false;
  readonly #object: WeakRef<FakeNotification>;
  constructor(
    readonly options: Record<string, unknown>,
    object: FakeNotification,
  ) {
    this.#object = new WeakRef(object);
  }
  /** Whether the app's object is still there to hear about a click. */
  get alive(): boolean {
    return this.#object.deref() !== undefined;
  }
  /**
   * The user clicks it: "Emitted when the notification is clicked by the user." Returns
   * whether the app's object was there to hear it. The server takes a clicked
   * notification away.
   */
  click(): boolean {
    const object = this.#object.deref();
    if (this.closed) return false;
    this.closed = true;
    if (!object) return false;
    object.emit('click', new FakeEvent());
    return true;
  }
  /**
   * The user dismisses it: `close`, "Emitted when the notification is closed by manual
   * intervention from the user."
   */
  dismiss(): void {
    if (this.closed) return;
    this.closed = true;
    this.#object.deref()?.emit('close', new FakeEvent());
  }
}

/** What a fake's Notification class reports to its fake. */
interface NotificationSide {
  supported: boolean;
  desktop: DesktopNotificationEntry[];
}

export class FakeNotification extends EventEmitter {
  /** Set by each fake's subclass. */
  static side: NotificationSide = { supported: true, desktop: [] };
  #entry: DesktopNotificationEntry | undefined;
  constructor(readonly options: Record<string, unknown> = {}) {
    super();
  }
  // "Returns `boolean` - Whether or not desktop notifications are supported on the current
  // system": on Linux, whether a notification server answers on the session bus.
  static isSupported(): boolean {
    return this.side.supported;
  }
  #side(): NotificationSide {
    return (this.constructor as typeof FakeNotification).side;
  }
  // "Immediately shows the notification to the user." Where none are supported, nothing
  // shows.
  show(): void {
    const side = this.#side();
    if (!side.supported || this.#entry) return;
    this.#entry = new DesktopNotificationEntry(this.options, this);
    side.desktop.push(this.#entry);
  }
  // "Dismisses the notification." The fake says so with `close`, as libnotify's "closed"
  // signal does on Linux (and Windows: "programmatic dismissal with
  // `notification.close()`"), though "This event is not guaranteed to be emitted in all
  // cases where the notification is closed."
  close(): void {
    if (!this.#entry || this.#entry.closed) return;
    this.#entry.closed = true;
    this.emit('close', new FakeEvent());
  }
}

/**
 * A full garbage collection, as V8 makes one when memory is needed: what nothing
 * references is gone after it (and its WeakRefs empty). V8's `gc` is exposed for it;
 * WeakRefs made in the current job stay until it ends, so it waits for the next one.
 */
async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

export interface Recorded {
  errorBoxes: { title: string; content: string }[];
  messageBoxes: Record<string, unknown>[];
  protocolClients: { protocol: string; registered: boolean }[];
  appUserModelIds: string[];
  exited: { code: number; via: 'quit' | 'exit' } | null;
  lockHeld: boolean;
  /** The URLs given to shell.openExternal, the system browser. */
  openedExternally: string[];
  /** What app.relaunch() was asked to start once the process ends. */
  relaunches: { args?: string[]; execPath?: string }[];
}

export class FakeApp extends EventEmitter {
  name = 'Debusine Desktop';
  isPackaged = false;
  readonly #fake: AppSide;
  constructor(fake: AppSide) {
    super();
    this.#fake = fake;
  }
  whenReady(): Promise<void> {
    return this.#fake.readyGate.promise;
  }
  isReady(): boolean {
    return this.#fake.isReady();
  }
  getPath(name: string): string {
    const userData = this.#fake.options.userData;
    return name === 'userData' ? userData : join(userData, `..${name}`);
  }
  requestSingleInstanceLock(): boolean {
    if (this.#fake.options.lockHeldElsewhere) return false;
    this.#fake.recorded.lockHeld = true;
    return true;
  }
  // "Releases all locks that were created by `requestSingleInstanceLock`."
  releaseSingleInstanceLock(): void {
    this.#fake.recorded.lockHeld = false;
  }
  setAppUserModelId(id: string): void {
    this.#fake.recorded.appUserModelIds.push(id);
  }
  // On Linux Electron makes the .desktop entry of its desktop name the handler of
  // `x-scheme-handler/<protocol>` (shell/browser/browser_linux.cc), which succeeds only
  // where that entry is installed; and the desktop's loader (GIO's GDesktopAppInfo, as
  // xdg-settings' desktop lookup) takes an entry only when the program its Exec names
  // exists. So an entry pointing at an AppImage that is not there registers nothing.
  setAsDefaultProtocolClient(protocol: string): boolean {
    const desktop = process.env.CHROME_DESKTOP ?? 'debusine-desktop.desktop';
    const registered = (this.#fake.options.applicationDirs ?? []).some((dir) => {
      const file = join(dir, desktop);
      if (!existsSync(file)) return false;
      const exec = /^Exec=(?:"([^"]+)"|(\S+))/m.exec(readFileSync(file, 'utf8'));
      const program = exec?.[1] ?? exec?.[2];
      // A bare name is looked for on PATH; the entries the app writes name a path.
      return program !== undefined && (!program.startsWith('/') || existsSync(program));
    });
    this.#fake.recorded.protocolClients.push({ protocol, registered });
    return registered;
  }
  // "Try to close all windows. The `before-quit` event will be emitted first. If all
  // windows are successfully closed, the `will-quit` event will be emitted and by
  // default the application will terminate." Listeners are called as any EventEmitter
  // calls them: a promise one returns is not waited for. "Calling
  // `event.preventDefault()` will prevent the default behavior, which is terminating
  // the application."
  quit(): void {
    const before = new FakeEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    const context = this.#fake.context;
    context.quitting = true;
    for (const win of [...context.windows]) win.close();
    context.quitting = false;
    const will = new FakeEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.emit('quit', new FakeEvent(), 0);
    this.#fake.end(0, 'quit');
  }
  // "Relaunches the app when the current instance exits." "When `app.relaunch` is called
  // multiple times, multiple instances will be started after the current instance exits."
  relaunch(options: { args?: string[]; execPath?: string } = {}): void {
    this.#fake.recorded.relaunches.push(options);
  }
  // "All windows will be closed immediately without asking the user, and the
  // `before-quit` and `will-quit` events will not be emitted."
  exit(code = 0): void {
    for (const win of [...this.#fake.context.windows]) win.destroy();
    this.#fake.end(code, 'exit');
  }
}

/** What FakeApp needs of its fake. */
interface AppSide {
  options: FakeElectronOptions;
  recorded: Recorded;
  readyGate: Deferred;
  context: Context;
  isReady(): boolean;
  end(code: number, via: 'quit' | 'exit'): void;
}

export function createFakeElectron(options: FakeElectronOptions) {
  const keyring = options.keyring ?? true;
  const recorded: Recorded = {
    errorBoxes: [],
    messageBoxes: [],
    protocolClients: [],
    appUserModelIds: [],
    exited: null,
    lockHeld: false,
    openedExternally: [],
    relaunches: [],
  };
  /** Called the moment the process would end, for a test to see what it leaves behind. */
  let onExit: () => void = () => undefined;
  let ready = false;
  const readyGate = deferred();
  const context: Context = {
    windows: [],
    nextId: 1,
    quitting: false,
    exited: () => recorded.exited !== null,
    allClosed: () => app.emit('window-all-closed'),
    // "Emitted when a new webContents is created", every one, the main window's too:
    // lib/browser/api/web-contents.ts emits it from WebContents' _init, while the window
    // that owns it is being constructed, before its constructor returns.
    contentsCreated: (contents) =>
      app.emit(
        'web-contents-created',
        { sender: contents, preventDefault: () => undefined, defaultPrevented: false },
        contents,
      ),
  };
  const windows = context.windows;
  const app: FakeApp = new FakeApp({
    options,
    recorded,
    readyGate,
    context,
    isReady: () => ready,
    end(code, via) {
      if (recorded.exited) return;
      onExit();
      recorded.exited = { code, via };
      // The process ends: the operating system drops the lock with it.
      recorded.lockHeld = false;
    },
  });
  const BrowserWindow: {
    new (options: Record<string, unknown>): FakeBrowserWindow;
    getAllWindows(): FakeBrowserWindow[];
  } = class extends FakeBrowserWindow {
    constructor(windowOptions: Record<string, unknown>) {
      super(context, windowOptions);
    }
    static getAllWindows(): FakeBrowserWindow[] {
      return [...windows];
    }
  };
  const trays: FakeTray[] = [];
  const Tray: new () => FakeTray = class extends FakeTray {
    constructor() {
      super();
      trays.push(this);
    }
  };

  const notifications: NotificationSide = {
    supported: options.notificationsSupported ?? true,
    desktop: [],
  };
  // Typed as the named class: the type of an anonymous subclass cannot be written out.
  const Notification: typeof FakeNotification = class extends FakeNotification {
    static override side = notifications;
  };

  const permissions = {
    request: null as Listener | null,
    check: null as ((...args: unknown[]) => boolean) | null,
  };
  let headersListener: Listener | null = null;
  const appScheme = fakeProtocol(() => ready);
  Object.defineProperty(app, 'commandLine', { value: fakeCommandLine() });
  const defaultSession = {
    protocol: appScheme.sessionProtocol,
    webRequest: {
      onHeadersReceived(listener: Listener): void {
        headersListener = listener;
      },
    },
    setPermissionRequestHandler(handler: Listener | null): void {
      permissions.request = handler;
    },
    setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null): void {
      permissions.check = handler;
    },
  };

  const ipcHandlers = new Map<string, (...args: unknown[]) => unknown>();
  const ipcListeners = new Map<string, Listener>();
  const ipcMain = {
    handle(channel: string, handler: (...args: unknown[]) => unknown): void {
      ipcHandlers.set(channel, handler);
    },
    on(channel: string, listener: Listener): void {
      ipcListeners.set(channel, listener);
    },
    removeHandler(channel: string): void {
      ipcHandlers.delete(channel);
    },
  };

  const keyringState = { locked: options.keyringLocked ?? false, decryptAttempts: 0 };
  const cipher = (prefix: string, text: string) =>
    Buffer.concat([Buffer.from(prefix), Buffer.from(text).reverse()]);
  const safeStorage = {
    // "The asynchronous encryptor is initialized lazily the first time this method,
    // `encryptStringAsync`, or `decryptStringAsync` is called after the app is ready.
    // The returned promise resolves once initialization completes." On Linux "a fallback
    // provider is used for environments without a secret service available", so it
    // resolves true with or without a keyring (electron_api_safe_storage.cc resolves
    // true as soon as the encryptor exists).
    async isAsyncEncryptionAvailable(): Promise<boolean> {
      if (!ready) return false;
      await options.keyringReady;
      return true;
    },
    // The ciphertext starts with the tag of the key that made it: "v11" for the key kept
    // in the Secret Service, "v10" for the fallback's fixed key (Chromium's
    // freedesktop_secret_key_provider.cc and posix_key_provider.cc).
    async encryptStringAsync(text: string): Promise<Buffer> {
      if (!ready) throw new Error('safeStorage cannot be used before app is ready');
      await options.keyringReady;
      return cipher(keyring ? 'v11' : 'v10', text);
    },
    // "`shouldReEncrypt` boolean - whether data that has just been returned from the
    // decrypt operation should be re-encrypted, as the key has been rotated or a new key
    // is available that provides a different security level."
    async decryptStringAsync(data: Buffer) {
      if (!ready) throw new Error('safeStorage cannot be used before app is ready');
      await options.keyringReady;
      const tag = data.subarray(0, 3).toString();
      keyringState.decryptAttempts++;
      // A key provider that cannot give its key now (a locked Secret Service collection)
      // sets `temporarily_unavailable`, and electron_api_safe_storage.cc rejects with
      // "safeStorage.decryptStringAsync is temporarily unavailable. Please try again."
      if (tag === 'v11' && keyring && keyringState.locked) {
        throw new Error(
          'safeStorage.decryptStringAsync is temporarily unavailable. Please try again.',
        );
      }
      if (tag === 'v11' && !keyring) {
        throw new Error(
          'Error while decrypting the ciphertext provided to safeStorage.decryptStringAsync.',
        );
      }
      const result = Buffer.from(data.subarray(3)).reverse().toString();
      return { shouldReEncrypt: tag !== (keyring ? 'v11' : 'v10'), result };
    },
    // "User friendly name of the password manager selected on Linux": chosen from the
    // desktop environment by the synchronous API ("`basic_text` - When the desktop
    // environment is not recognised"), whether or not a keyring runs.
    getSelectedStorageBackend(): string {
      return ready ? (options.desktopBackend ?? 'gnome_libsecret') : 'unknown';
    },
  };

  // "Emitted when the system is suspending." / "Emitted when system is resuming." On Linux
  // both come from logind's PrepareForSleep signal.
  const powerMonitor = new EventEmitter();

  const dialogs = {
    /** How the user answers a message box: the index of a button, at once or later. */
    answer: (_options: MessageBoxOptions): number | Promise<number> => 0,
  };

  const module = {
    app,
    protocol: appScheme.protocol,
    BrowserWindow,
    session: { defaultSession },
    ipcMain,
    safeStorage,
    dialog: {
      // "This API can be called safely before the `ready` event the `app` module emits".
      showErrorBox(title: string, content: string): void {
        recorded.errorBoxes.push({ title, content });
      },
      showMessageBox(...args: unknown[]) {
        const options = args.at(-1) as MessageBoxOptions;
        recorded.messageBoxes.push(options);
        return answerMessageBox(options, dialogs.answer);
      },
      showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
      showSaveDialog: () => Promise.resolve({ canceled: true, filePath: '' }),
    },
    shell: {
      openExternal: (url: string) => {
        recorded.openedExternally.push(url);
        return Promise.resolve();
      },
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    net: { isOnline: () => true },
    Menu: {
      buildFromTemplate: (template: unknown) => ({ template }),
      setApplicationMenu: () => undefined,
    },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    Tray,
    Notification,
    powerMonitor,
  };

  return {
    module,
    recorded,
    windows,
    trays,
    /** How the user answers message boxes. */
    dialogs,
    /** The computer sleeps and wakes up: powerMonitor's `suspend`, then `resume`. */
    sleepAndWake(): void {
      powerMonitor.emit('suspend');
      powerMonitor.emit('resume');
    },
    /**
     * The notifications shown, as the desktop has them; `supported` is what
     * Notification.isSupported() answers.
     */
    notifications,
    /**
     * Time passes and the garbage collector runs: a notification the app no longer
     * references loses its listeners (`alive` turns false), as in Electron.
     */
    collect: collectGarbage,
    /** The keyring: lock or unlock it, and how many decryptions were asked of it. */
    keyring: keyringState,
    set onExit(hook: () => void) {
      onExit = hook;
    },
    /** Electron is initialised: `ready`, then whenReady() resolves. */
    ready(): void {
      ready = true;
      app.emit('ready', new FakeEvent(), {});
      readyGate.resolve();
    },
    /** macOS hands the app a link (at launch, before `ready`, or later). */
    openUrl(url: string): boolean {
      const event = new FakeEvent();
      app.emit('open-url', event, url);
      return event.defaultPrevented;
    },
    /**
     * Another launch of the app hands its arguments over. "This event is guaranteed to
     * be emitted after the `ready` event of `app` gets emitted."
     */
    secondInstance(argv: string[]): void {
      if (!ready) throw new Error('second-instance comes only after ready');
      app.emit('second-instance', new FakeEvent(), argv, process.cwd(), {});
    },
    /**
     * "Emitted when the child process unexpectedly disappears. This is normally because it
     * was crashed or killed, or because it failed to launch. It does not include renderer
     * processes."
     */
    childProcessGone(details: {
      type: 'Utility' | 'Zygote' | 'Sandbox helper' | 'GPU' | 'Unknown';
      reason: RenderProcessGoneReason;
      exitCode: number;
      name?: string;
    }): void {
      app.emit('child-process-gone', new FakeEvent(), details);
    },
    readyToShow(win: FakeBrowserWindow): void {
      win.emit('ready-to-show', new FakeEvent());
    },
    /**
     * The response headers main's session gives a response from `url`. None for a file://
     * page: Electron's security guide says of the header, "it is not possible to use this
     * method when loading a resource using the `file://` protocol".
     */
    headersFor(url: string, responseHeaders: Record<string, string[]> = {}) {
      if (url.startsWith('file:')) return responseHeaders;
      let answer: Record<string, string[]> | undefined;
      headersListener?.({ url, responseHeaders }, (r: { responseHeaders?: typeof answer }) => {
        answer = r.responseHeaders;
      });
      return answer ?? responseHeaders;
    },
    /**
     * What a frame asking for `permission` gets. The session docs: "Most web APIs do a
     * permission check and then make a permission request if the check is denied." With
     * no handler set, Electron grants it.
     */
    async askPermission(
      contents: FakeWebContents,
      permission: string,
      frameUrl: string,
      isMainFrame = true,
    ): Promise<boolean> {
      const origin = new URL(frameUrl).origin;
      const details = { requestingUrl: frameUrl, isMainFrame };
      const check = permissions.check;
      if (!check || check(contents, permission, origin, details)) return true;
      const request = permissions.request;
      if (!request) return true;
      return new Promise<boolean>((resolve) => {
        request(contents, permission, resolve, details);
      });
    },
    /**
     * What a frame's `navigator.clipboard.writeText` gets: the permission it asks for is
     * "`clipboard-sanitized-write` - Request access to write to the clipboard." The request
     * handler alone decides it, whatever the check handler says: Electron's own
     * spec/chromium-spec.ts ('navigator.clipboard.write') grants and denies writeText with
     * setPermissionRequestHandler only, and with none set "returns clipboard contents
     * when a PermissionRequestHandler is not defined".
     */
    clipboardWrite(
      contents: FakeWebContents,
      frameUrl: string,
      isMainFrame = true,
    ): Promise<boolean> {
      const request = permissions.request;
      if (!request) return Promise.resolve(true);
      const details = { requestingUrl: frameUrl, isMainFrame };
      return new Promise<boolean>((resolve) => {
        request(contents, 'clipboard-sanitized-write', resolve, details);
      });
    },
    /** What a page's request for `url` gets from the scheme's handler on the session. */
    request: appScheme.request,
    /** The schemes main registered as privileged, with their privileges. */
    privilegedSchemes: appScheme.privileged,
    /** A request from a window's page through ipcRenderer.invoke. */
    invoke(win: FakeBrowserWindow, channel: string, ...args: unknown[]): Promise<unknown> {
      const handler = ipcHandlers.get(channel);
      if (!handler) return Promise.reject(new Error(`No handler for ${channel}`));
      return Promise.resolve(handler(senderEvent(win), ...args));
    },
    /** A message from a window's page through ipcRenderer.send. */
    send(win: FakeBrowserWindow, channel: string, ...args: unknown[]): void {
      ipcListeners.get(channel)?.(senderEvent(win), ...args);
    },
  };
}

/** What the fake reads of dialog.showMessageBox's options. */
interface MessageBoxOptions extends Record<string, unknown> {
  buttons?: string[];
  cancelId?: number;
  signal?: AbortSignal;
}

/**
 * The user's answer, or the cancel button's if the app's `signal` aborts first: "Pass an
 * instance of AbortSignal to optionally close the message box, the message box will behave
 * as if it was cancelled by the user." And `cancelId`: "By default this is assigned to the
 * first button with "cancel" or "no" as the label. If no such labeled buttons exist and
 * this option is not set, `0` will be used as the return value."
 */
function answerMessageBox(
  options: MessageBoxOptions,
  answer: (options: MessageBoxOptions) => number | Promise<number>,
): Promise<{ response: number; checkboxChecked: boolean }> {
  const labelled = (options.buttons ?? []).findIndex((b) => /^(cancel|no)$/i.test(b));
  const cancelId = options.cancelId ?? (labelled === -1 ? 0 : labelled);
  const signal = options.signal;
  const cancelled = new Promise<number>((resolve) => {
    if (signal?.aborted) resolve(cancelId);
    signal?.addEventListener(
      'abort',
      () => {
        resolve(cancelId);
      },
      { once: true },
    );
  });
  return Promise.race([Promise.resolve(answer(options)), cancelled]).then((response) => ({
    response,
    checkboxChecked: false,
  }));
}

function senderEvent(win: FakeBrowserWindow) {
  return {
    sender: win.webContents,
    senderFrame: { url: win.webContents.url, parent: null },
  };
}

// ---- Custom schemes (protocol.registerSchemesAsPrivileged, session.protocol.handle) and
// app.commandLine ----
// Kept in one block (with the few lines that plug it into createFakeElectron, next to
// `appScheme`), apart from the rest of the fake.

/**
 * app.commandLine: "A `CommandLine` object that allows you to read and manipulate the
 * command line arguments that Chromium uses." Chromium builds it from the process's
 * arguments, and reads a switch written `--name` or `-name`, with or without `=value`, up
 * to a lone `--` (base/command_line.cc).
 */
function fakeCommandLine() {
  return {
    hasSwitch(name: string): boolean {
      const end = process.argv.indexOf('--');
      const switches = end === -1 ? process.argv : process.argv.slice(0, end);
      return switches.some((arg) => new RegExp(`^--?${name}(=|$)`).test(arg));
    },
  };
}

/** A scheme as registerSchemesAsPrivileged takes it. */
interface FakeCustomScheme {
  scheme: string;
  privileges?: Record<string, boolean>;
}
type FakeHandler = (request: Request) => Response | Promise<Response>;

function fakeProtocol(isReady: () => boolean) {
  const privileged = new Map<string, Record<string, boolean>>();
  const handlers = new Map<string, FakeHandler>();
  let registered = false;
  const protocol = {
    // "This method can only be used before the `ready` event of the `app` module gets
    // emitted and can be called only once." After ready, Electron throws
    // (electron_api_protocol.cc, RegisterSchemesAsPrivileged); a second call throws here.
    registerSchemesAsPrivileged(schemes: FakeCustomScheme[]): void {
      if (isReady()) {
        throw new Error(
          'protocol.registerSchemesAsPrivileged should be called before app is ready',
        );
      }
      if (registered) throw new Error('registerSchemesAsPrivileged can be called only once');
      registered = true;
      for (const { scheme, privileges = {} } of schemes) privileged.set(scheme, privileges);
    },
  };
  const sessionProtocol = {
    // "All methods unless specified can only be used after the `ready` event of the `app`
    // module gets emitted." Electron's handle throws for a scheme handled already
    // (lib/browser/api/protocol.ts: "Failed to register protocol").
    handle(scheme: string, handler: FakeHandler): void {
      if (!isReady()) throw new Error('protocol.handle can only be used after ready');
      if (handlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
      handlers.set(scheme, handler);
    },
  };
  /**
   * A page's request: the handler gets `new Request(url, { method })`, as Electron's
   * handle() makes one (lib/browser/api/protocol.ts), and what it throws fails the request.
   * A scheme no handler serves fails, as Chromium fails an unknown scheme.
   */
  async function request(url: string, method = 'GET'): Promise<Response> {
    const scheme = url.slice(0, Math.max(0, url.indexOf(':')));
    const handler = handlers.get(scheme);
    if (!handler) throw new Error(`net::ERR_UNKNOWN_URL_SCHEME: ${url}`);
    return handler(new Request(url, { method }));
  }
  return { protocol, sessionProtocol, request, privileged };
}
// ---- end of custom schemes ----

export type FakeElectron = ReturnType<typeof createFakeElectron>;

const MODULE_KEYS = [
  'app',
  'protocol',
  'BrowserWindow',
  'session',
  'ipcMain',
  'safeStorage',
  'dialog',
  'shell',
  'screen',
  'net',
  'Menu',
  'nativeImage',
  'Tray',
  'Notification',
  'powerMonitor',
] as const satisfies readonly (keyof FakeElectron['module'])[];

/**
 * The `electron` module for vi.mock, reading `current()` at each use: a test that loads
 * main.ts again for each case (vi.resetModules) gives each load a fresh fake.
 */
export function electronModule(current: () => FakeElectron): FakeElectron['module'] {
  const module = {} as FakeElectron['module'];
  for (const key of MODULE_KEYS) {
    Object.defineProperty(module, key, { enumerable: true, get: () => current().module[key] });
  }
  return module;
}

/**
 * The fake that a test file's mocked `electron` stands for, for files that load the app's
 * modules once: a test sets `mockedElectron.current` to a fresh fake, and the module the
 * mock returns (`mockedElectronModule`) answers with whichever fake is current.
 */
export const mockedElectron: { current: FakeElectron } = {
  current: createFakeElectron({ userData: '/nonexistent' }),
};

export function mockedElectronModule(): FakeElectron['module'] {
  return electronModule(() => mockedElectron.current);
}
