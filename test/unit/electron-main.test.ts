/**
 * src/main/app/main.ts itself, loaded with a fake `electron` that does what Electron 45
 * documents (test/support/fake-electron.ts): events nobody listens to yet are lost,
 * `before-quit` does not wait for a promise, the keyring may take its time. Each case
 * loads main.ts afresh, as one launch of the app.
 *
 * A start that fails says so and ends (releasing the single-instance lock); links given at
 * launch, by another launch while this one starts, or by macOS before `ready` reach the
 * app; the window opens before the keyring answers; an AppImage registers its scheme;
 * quitting during an upload pauses it and leaves no half-written file; the window's page
 * comes from app://, registered before `ready`; and the app does not run without
 * Chromium's sandbox unless told to.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BRIDGE_ACK_CHANNEL,
  BRIDGE_EVENT_CHANNEL,
  BRIDGE_READY_CHANNEL,
} from '../../src/shared/contract-names';
import { MAX_UNACKED_EVENTS } from '../../src/main/bridge/unacked-events';
import { QUIT_WAIT_MS } from '../../src/main/app/quit';
import { APP_INDEX_URL } from '../../src/main/app/app-protocol';
import type * as CompositionRoot from '../../src/main/composition-root';
import {
  createFakeElectron,
  deferred,
  type FakeBrowserWindow,
  type FakeElectron,
  type FakeElectronOptions,
} from '../support/fake-electron';
import { targetsOn } from '../support/navigations';

const fake = await vi.hoisted(async () => {
  const { createFakeElectron: create } = await import('../support/fake-electron');
  return { current: create({ userData: '/nonexistent' }) };
});
vi.mock('electron', async () => {
  const { electronModule } = await import('../support/fake-electron');
  return electronModule(() => fake.current);
});

/**
 * The service is the app's own, its calls counted; a case may hold its close back, as a
 * call in flight that never ends holds it (closing waits for each one).
 */
const serviceCalls = vi.hoisted(() => ({
  closeHold: undefined as Promise<void> | undefined,
  /** How many times the service was closed. */
  closes: 0,
  /** How many times the service was told to connect again. */
  reconnects: 0,
}));
/**
 * The service as the app makes it, its close and reconnect counted. Registered anew for each
 * launch (vi.doMock after vi.resetModules): vi.mock's module would be made once and kept
 * across resets, and a later launch would get the first launch's service modules.
 */
function countServiceCalls(): void {
  vi.doMock('../../src/main/composition-root', async (importOriginal) => {
    const actual = await importOriginal<typeof CompositionRoot>();
    return {
      ...actual,
      createService: (deps: Parameters<typeof actual.createService>[0]) => {
        const service = actual.createService(deps);
        const close = service.close.bind(service);
        const reconnect = service.reconnect.bind(service);
        service.reconnect = () => {
          serviceCalls.reconnects++;
          reconnect();
        };
        service.close = async () => {
          serviceCalls.closes++;
          await serviceCalls.closeHold;
          await close();
        };
        return service;
      },
    };
  });
}

// Each case loads main.ts and the service behind it afresh.
vi.setConfig({ testTimeout: 30_000 });

const ENV_KEYS = [
  'APPIMAGE',
  'XDG_DATA_HOME',
  'XDG_CONFIG_HOME',
  'HOME',
  'DEBUSINE_DESKTOP_API_URL',
  'DEBUSINE_DESKTOP_TOKEN',
  'DEBUSINE_DESKTOP_SCOPE',
  'DEBUSINE_DESKTOP_WORKSPACE',
  'DEBUSINE_DESKTOP_DPUT_DIRS',
  'DEBUSINE_DESKTOP_ALLOW_NO_SANDBOX',
] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
const savedArgv = process.argv;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ddt-main-'));
  for (const key of ENV_KEYS) Reflect.deleteProperty(process.env, key);
  // Nothing of the user's: no CLI config, no dput-ng profiles.
  process.env.HOME = dir;
  process.env.XDG_CONFIG_HOME = join(dir, 'config');
  process.env.XDG_DATA_HOME = join(dir, 'share');
  process.env.DEBUSINE_DESKTOP_DPUT_DIRS = join(dir, 'dput');
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  serviceCalls.closeHold = undefined;
  // Whatever a case left running ends with its app.
  if (!fake.current.recorded.exited) {
    fake.current.module.app.quit();
    await until(() => fake.current.recorded.exited !== null);
  }
  serviceCalls.closes = 0;
  serviceCalls.reconnects = 0;
  process.argv = savedArgv;
  for (const key of ENV_KEYS) {
    const value = savedEnv[key];
    if (value === undefined) Reflect.deleteProperty(process.env, key);
    else process.env[key] = value;
  }
  await rm(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeout = 10_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One launch: main.ts loaded afresh against a new fake, with `argv` after the program. */
async function launch(
  options: Partial<FakeElectronOptions> = {},
  argv: string[] = [],
): Promise<FakeElectron> {
  const e = createFakeElectron({ userData: join(dir, 'data'), ...options });
  fake.current = e;
  process.argv = ['/opt/Debusine Desktop/debusine-desktop', ...argv];
  vi.resetModules();
  countServiceCalls();
  await import('../../src/main/app/main');
  return e;
}

/** Started: the last thing start() does is to ask for the link scheme. */
const started = (e: FakeElectron) => () =>
  e.recorded.protocolClients.length > 0 || e.recorded.exited !== null;

function mainWindow(e: FakeElectron): FakeBrowserWindow {
  const win = e.windows[0];
  if (!win) throw new Error('no window');
  return win;
}

/** The work requests the app was told to show, as the renderer gets them. */
/** The profile the environment's server becomes (named after its host). */
const ENV_PROFILE = '127-0-0-1-9';

function navigations(win: FakeBrowserWindow): unknown[] {
  return targetsOn(
    win.webContents.sent
      .filter((m) => m.channel === BRIDGE_EVENT_CHANNEL)
      .map((m) => m.args[0] as { event: string; payload: unknown })
      .filter((m) => m.event === 'app.navigate')
      .map((m) => m.payload),
    ENV_PROFILE,
  );
}

/** A Debusine that takes artifacts and the first bytes of a file, then never answers. */
async function stallingServer() {
  const seen = { putStarted: false, putClosedByClient: false };
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.method === 'POST' && url === '/api/1.0/artifact/') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const request = JSON.parse(body) as { category: string; files: Record<string, unknown> };
        json(201, {
          id: 101,
          workspace: 'System',
          category: request.category,
          created_at: new Date().toISOString(),
          data: {},
          download_tar_gz_url: '/api/1.0/artifact/101/?archive=tar.gz',
          files_to_upload: Object.keys(request.files),
          links: {},
        });
      });
      return;
    }
    if (req.method === 'PUT' && url.startsWith('/api/1.0/artifact/101/files/')) {
      if ((req.headers['content-range'] ?? '').startsWith('bytes */')) {
        res.writeHead(206, { range: 'bytes=0-0' }).end();
        return;
      }
      seen.putStarted = true;
      req.on('data', () => undefined);
      req.on('close', () => {
        if (!res.writableEnded) seen.putClosedByClient = true;
      });
      return;
    }
    json(404, { title: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    seen,
    apiUrl: `http://127.0.0.1:${String(address.port)}/api`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => {
          r();
        });
      }),
  };
}

/** Every file under `root`, relative, with its text when it is small JSON. */
function tree(root: string, at = ''): { path: string; json: unknown }[] {
  const out: { path: string; json: unknown }[] = [];
  for (const name of readdirSync(join(root, at))) {
    const path = join(at, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...tree(root, path));
    else if (path.endsWith('.json')) {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(join(root, path), 'utf8'));
      } catch {
        json = 'not JSON';
      }
      out.push({ path, json });
    } else out.push({ path, json: null });
  }
  return out;
}

describe('a start that fails', () => {
  it('says why in a dialog, and ends, releasing the single-instance lock', async () => {
    // The data directory cannot be made: a file is where its parent should be.
    await writeFile(join(dir, 'data'), 'not a directory');
    const e = await launch({ userData: join(dir, 'data', 'Debusine Desktop') });
    expect(e.recorded.lockHeld).toBe(true);
    e.ready();
    await until(() => e.recorded.exited !== null);
    expect(e.recorded.errorBoxes).toHaveLength(1);
    expect(e.recorded.errorBoxes[0]?.title).toBe('Debusine Desktop could not start');
    expect(e.recorded.errorBoxes[0]?.content).toContain('ENOTDIR');
    expect(e.recorded.exited).toEqual({ code: 1, via: 'exit' });
    expect(e.recorded.lockHeld).toBe(false);
  });
});

describe('the window', () => {
  it('opens before the keyring has answered', async () => {
    process.env.DEBUSINE_DESKTOP_API_URL = 'http://127.0.0.1:9/api';
    process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
    const keyring = deferred();
    const e = await launch({ keyringReady: keyring.promise });
    e.ready();
    await until(() => e.windows.length > 0);
    expect(started(e)()).toBe(false);
    keyring.resolve();
    await until(started(e));
  });

  it('has the app’s icon, which an AppImage has no desktop entry to give it', async () => {
    const e = await launch();
    e.ready();
    await until(started(e));
    const icon = mainWindow(e).options.icon;
    expect(typeof icon).toBe('string');
    // Beside the tray's icons, in the resources the package ships (electron-builder.yml).
    expect(String(icon)).toMatch(/\/resources\/icon\.png$/);
    expect(statSync(join(import.meta.dirname, '../../resources/icon.png')).isFile()).toBe(true);
  });

  it('whose page crashes before its first paint is shown and reloaded, not left hidden', async () => {
    const e = await launch();
    e.ready();
    await until(started(e));
    const win = mainWindow(e);
    expect(win.isVisible()).toBe(false);
    await win.webContents.processGone('crashed');
    expect(win.isVisible()).toBe(true);
    expect(win.webContents.reloads).toBe(1);
    expect(e.recorded.messageBoxes.map((box) => box.message)).toEqual(['The window was reloaded']);
  });
});

describe('every webContents', () => {
  it('is hardened by main, the window’s own links going to the system browser', async () => {
    const e = await launch();
    e.ready();
    await until(started(e));
    const win = mainWindow(e);
    const app = win.webContents.url;
    // The window's own handlers, set after web-contents-created's, decide for its page.
    expect(win.webContents.openHandler?.({ url: 'https://debusine.debian.net/' })).toEqual({
      action: 'deny',
    });
    expect(win.webContents.tryNavigate('https://evil.example/')).toBe(true);
    expect(win.webContents.tryNavigate(`${app}#/work-requests`)).toBe(false);
    expect(e.recorded.openedExternally).toEqual([
      'https://debusine.debian.net/',
      'https://evil.example/',
    ]);
    // Any other webContents (one a bug might make) opens nothing, here or outside.
    const other = new e.module.BrowserWindow({ show: false });
    expect(other.webContents.openHandler?.({ url: 'https://debusine.debian.net/' })).toEqual({
      action: 'deny',
    });
    expect(other.webContents.tryNavigate('https://evil.example/')).toBe(true);
    expect(e.recorded.openedExternally).toHaveLength(2);
    other.destroy();
  });
});

describe('a locked keyring', () => {
  it('is said to be locked, never taken for no sign-in, and the token read once it is unlocked', async () => {
    // A server that answers every request with 404: reachable, with nothing in it.
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"Not found"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      // A first launch stores the token in the keyring…
      process.env.DEBUSINE_DESKTOP_API_URL = `http://127.0.0.1:${String(address.port)}/api`;
      process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
      const first = await launch();
      first.ready();
      await until(started(first));
      first.module.app.quit();
      await until(() => first.recorded.exited !== null);
      Reflect.deleteProperty(process.env, 'DEBUSINE_DESKTOP_API_URL');
      Reflect.deleteProperty(process.env, 'DEBUSINE_DESKTOP_TOKEN');
      const keyFile = join(dir, 'data', 'tokens.keyring.json');
      const stored = await readFile(keyFile, 'utf8');

      // …the next starts with it locked.
      const e = await launch({ keyringLocked: true });
      e.ready();
      await until(started(e));
      const win = mainWindow(e);
      const ask = async () =>
        (await e.invoke(win, 'workRequests.get', { id: 1 })) as {
          ok: boolean;
          error?: { code: string; message: string };
        };
      const locked = await ask();
      expect(locked.ok).toBe(false);
      expect(locked.error?.code).not.toBe('auth');
      expect(locked.error?.message).toContain('keyring is locked');
      expect(await readFile(keyFile, 'utf8')).toBe(stored);

      // Unlocked: a retry reads the token, and the request reaches the server.
      e.keyring.locked = false;
      const answers: { ok: boolean; error?: { code: string; message: string } }[] = [];
      await until(() => {
        void ask().then((answer) => answers.push(answer));
        return answers.at(-1)?.error?.code === 'not-found';
      });
      expect(answers.every((a) => a.error?.code !== 'auth')).toBe(true);
      expect(await readFile(keyFile, 'utf8')).toBe(stored);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('waking from sleep', () => {
  it('connects the service again', async () => {
    process.env.DEBUSINE_DESKTOP_API_URL = 'http://127.0.0.1:9/api';
    process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
    const e = await launch();
    e.ready();
    await until(started(e));
    expect(serviceCalls.reconnects).toBe(0);
    e.sleepAndWake();
    expect(serviceCalls.reconnects).toBe(1);
  });
});

describe('links', () => {
  it('reach the app from its command line, from a launch while it starts, and from macOS before ready', async () => {
    process.env.DEBUSINE_DESKTOP_API_URL = 'http://127.0.0.1:9/api';
    process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
    // A switch among the arguments is not a link; this one the app runs with only if allowed.
    process.env.DEBUSINE_DESKTOP_ALLOW_NO_SANDBOX = '1';
    const keyring = deferred();
    const e = await launch({ keyringReady: keyring.promise }, [
      '--no-sandbox',
      'debusine-desktop://work-request/5',
    ]);
    e.openUrl('debusine-desktop://work-request/6');
    e.ready();
    // While the app starts (it waits for the keyring), another launch hands its link over.
    await new Promise((r) => setTimeout(r, 50));
    e.secondInstance(['/opt/Debusine Desktop/debusine-desktop', 'debusine-desktop://artifact/7']);
    keyring.resolve();
    await until(started(e));
    expect(e.recorded.exited).toBeNull();
    const win = mainWindow(e);
    e.send(win, BRIDGE_READY_CHANNEL);
    await until(() => navigations(win).length >= 3, 2_000).catch(() => undefined);
    expect(navigations(win)).toEqual([
      { kind: 'work-request', id: 5 },
      { kind: 'work-request', id: 6 },
      { kind: 'artifact', id: 7 },
    ]);
  });

  it('of the scheme reach an AppImage: its first run installs the desktop entry asking needs', async () => {
    const appImage = join(dir, 'Apps', 'Debusine Desktop-0.1.0-x86_64.AppImage');
    // The desktop takes an entry only when its program exists: the AppImage is there.
    await mkdir(join(dir, 'Apps'), { recursive: true });
    await writeFile(appImage, '');
    process.env.APPIMAGE = appImage;
    const applications = join(dir, 'share', 'applications');
    const e = await launch({ applicationDirs: [applications] });
    e.ready();
    await until(started(e));
    expect(e.recorded.protocolClients).toEqual([
      { protocol: 'debusine-desktop', registered: true },
    ]);
    const entry = await readFile(join(applications, 'debusine-desktop.desktop'), 'utf8');
    expect(entry).toContain(`Exec="${appImage}" %U\n`);
    expect(entry).toContain('MimeType=x-scheme-handler/debusine-desktop;\n');
    expect(entry).toContain('StartupWMClass=debusine-desktop\n');
  });
});

describe('an AppImage that is not where its entry says', () => {
  it('registers no scheme: the desktop refuses an entry whose program is missing', async () => {
    process.env.APPIMAGE = join(dir, 'Gone', 'Debusine Desktop-0.1.0-x86_64.AppImage');
    const applications = join(dir, 'share', 'applications');
    const e = await launch({ applicationDirs: [applications] });
    e.ready();
    await until(started(e));
    expect(e.recorded.protocolClients).toEqual([
      { protocol: 'debusine-desktop', registered: false },
    ]);
    // The app still runs.
    expect(e.recorded.exited).toBeNull();
  });
});

describe('a window that stops taking its events', () => {
  it('is sent no more than the bound past what it took, then reloaded, and its new page gets everything', async () => {
    process.env.DEBUSINE_DESKTOP_API_URL = 'http://127.0.0.1:9/api';
    process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
    const e = await launch();
    e.ready();
    await until(started(e));
    const win = mainWindow(e);
    e.send(win, BRIDGE_READY_CHANNEL);
    const events = () => win.webContents.sent.filter((m) => m.channel === BRIDGE_EVENT_CHANNEL);
    const flood = async (links: number, ack: boolean) => {
      let acked = events().length;
      for (let n = 0; n < links; n++) {
        e.secondInstance([
          '/usr/bin/debusine-desktop',
          `debusine-desktop://work-request/${String(n + 1)}`,
        ]);
        if (n % 100 === 99) {
          await new Promise((r) => setImmediate(r));
          if (ack) {
            e.send(win, BRIDGE_ACK_CHANNEL, events().length - acked);
            acked = events().length;
          }
        }
      }
    };

    // A page that takes nothing: what it was sent stops at the bound, and it is reloaded.
    const before = events().length;
    await flood(MAX_UNACKED_EVENTS + 1_000, false);
    await until(() => win.webContents.reloads > 0);
    const sent = events().length - before;
    expect(sent).toBeLessThanOrEqual(MAX_UNACKED_EVENTS);
    expect(sent).toBeGreaterThan(MAX_UNACKED_EVENTS / 2);
    expect(win.webContents.reloads).toBe(1);
    // Acknowledgements that are not counts are ignored (bridge/unacked-events.ts).
    for (const lie of ['5000', -1, Number.NaN, null]) e.send(win, BRIDGE_ACK_CHANNEL, lie);

    // The new page says it is ready, and takes what it is sent: all of it reaches it.
    e.send(win, BRIDGE_READY_CHANNEL);
    const reloaded = navigations(win).length;
    await flood(2 * MAX_UNACKED_EVENTS, true);
    await until(() => navigations(win).length >= reloaded + 2 * MAX_UNACKED_EVENTS);
    expect(navigations(win).length).toBe(reloaded + 2 * MAX_UNACKED_EVENTS);
    expect(win.webContents.reloads).toBe(1);
  });
});

describe('quitting during an upload', () => {
  it('pauses it where the server can resume it, and leaves no half-written file', async () => {
    const server = await stallingServer();
    try {
      process.env.DEBUSINE_DESKTOP_API_URL = server.apiUrl;
      process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
      const payload = join(dir, 'payload.bin');
      await writeFile(payload, randomBytes(8 << 20));
      const e = await launch();
      e.ready();
      await until(started(e));
      const win = mainWindow(e);
      // The bridge's reply, checked; the caller names the result's shape.
      const ok = (reply: unknown): unknown => {
        const r = reply as { ok: boolean; result: unknown; error?: unknown };
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        return r.result;
      };
      const [file] = ok(await e.invoke(win, 'debusine:stage-paths', [payload])) as {
        id: string;
      }[];
      const [draft] = ok(await e.invoke(win, 'localArtifacts.detect', { fileIds: [file?.id] })) as {
        draftId: string;
        ready: boolean;
      }[];
      let draftId = draft?.draftId ?? '';
      if (!draft?.ready) {
        const updated = ok(
          await e.invoke(win, 'localArtifacts.update', { draftId, kind: 'workRequestDebugLogs' }),
        ) as { draftId: string };
        draftId = updated.draftId;
      }
      ok(await e.invoke(win, 'uploads.start', { draftId, workspace: 'System' }));
      await until(() => server.seen.putStarted);

      const data = join(dir, 'data');
      // An object, so that what onExit sets is not narrowed away.
      const atExit: { files: { path: string; json: unknown }[] } = { files: [] };
      e.onExit = () => {
        atExit.files = tree(data);
      };
      e.module.app.quit();
      // Electron would end the process now if nothing held the quit back.
      expect(e.recorded.exited).toBeNull();
      await until(() => e.recorded.exited !== null);
      // The upload was stopped (the server sees the client hang up, as soon as its own
      // loop gets to it)…
      await until(() => server.seen.putClosedByClient, 2_000);
      const files = atExit.files;
      // …every file the app left when it ended is whole…
      expect(files.filter((f) => f.path.endsWith('.tmp'))).toEqual([]);
      expect(files.filter((f) => f.json === 'not JSON')).toEqual([]);
      // …and the job is kept, for the next start to resume where the server stopped.
      const jobs = files.filter((f) => f.path.startsWith('uploads/'));
      expect(jobs).toHaveLength(1);
      expect(jobs[0]?.json).toMatchObject({ state: 'uploading', parts: [{ artifactId: 101 }] });
      expect(files.map((f) => f.path)).toContain('window-state.json');
    } finally {
      await server.close();
    }
  });
});

describe('quitting', () => {
  const startedApp = async () => {
    process.env.DEBUSINE_DESKTOP_API_URL = 'http://127.0.0.1:9/api';
    process.env.DEBUSINE_DESKTOP_TOKEN = 'token-for-the-test';
    const e = await launch();
    e.ready();
    await until(started(e));
    return e;
  };

  it('ends after QUIT_WAIT_MS when closing never ends', async () => {
    const e = await startedApp();
    serviceCalls.closeHold = new Promise<void>(() => undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    e.module.app.quit();
    // The window's place is written first (real files, in real time), then the service
    // is closed: the case is where closing waits.
    // (setImmediate, which the fake clock leaves alone: vi.waitFor would move the clock.)
    while (serviceCalls.closes === 0) await new Promise((r) => setImmediate(r));
    await vi.advanceTimersByTimeAsync(QUIT_WAIT_MS - 1);
    expect(e.recorded.exited).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(e.recorded.exited).toEqual({ code: 0, via: 'quit' });
    expect(e.windows).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('quitting without waiting'));
    warn.mockRestore();
  });

  it('starts again after it ended when launched meanwhile, with that launch’s arguments', async () => {
    const e = await startedApp();
    serviceCalls.closeHold = new Promise<void>(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    e.module.app.quit();
    const program = '/opt/Debusine Desktop/debusine-desktop';
    e.secondInstance([program, 'debusine-desktop://work-request/5']);
    e.secondInstance([program, 'debusine-desktop://work-request/6']);
    // Once: each call starts one more instance.
    expect(e.recorded.relaunches).toEqual([
      { args: ['debusine-desktop://work-request/5'], execPath: process.execPath },
    ]);
    await until(() => e.recorded.exited !== null, QUIT_WAIT_MS + 2_000);
    // Before quitting, a launch's link is the running app's to open.
    const again = await startedApp();
    again.secondInstance([program, 'debusine-desktop://work-request/7']);
    expect(again.recorded.relaunches).toEqual([]);
  });

  it('is started again from the AppImage file, not from its mount', async () => {
    const appImage = join(dir, 'Debusine Desktop-0.1.0-x86_64.AppImage');
    process.env.APPIMAGE = appImage;
    const e = await startedApp();
    serviceCalls.closeHold = new Promise<void>(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    e.module.app.quit();
    e.secondInstance(['/tmp/.mount_Debusi/debusine-desktop']);
    expect(e.recorded.relaunches).toEqual([{ args: [], execPath: appImage }]);
  });

  it('ends as soon as closing ends, without waiting for the bound', async () => {
    const e = await startedApp();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    e.module.app.quit();
    expect(e.recorded.exited).toBeNull();
    // Real time passes for the files closing writes; the fake clock does not move.
    vi.useRealTimers();
    await until(() => e.recorded.exited !== null, 2_000);
    expect(serviceCalls.closes).toBe(1);
    expect(e.recorded.exited).toEqual({ code: 0, via: 'quit' });
  });
});

describe('on Windows', () => {
  it('names the app by its app id, without which Windows shows no notification', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    if (!platform) throw new Error('no process.platform');
    Object.defineProperty(process, 'platform', { value: 'win32' });
    try {
      const e = await launch();
      expect(e.recorded.appUserModelIds).toEqual(['org.debusine.desktop']);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});

describe('the window’s page', () => {
  it('comes from app://, registered before ready and served on the session', async () => {
    const e = await launch();
    // Registered at load, before ready: the fake, as Electron, refuses it after.
    expect(e.privilegedSchemes.get('app')).toEqual({ standard: true, secure: true });
    e.ready();
    await until(() => e.windows.length > 0 || e.recorded.exited !== null);
    expect(e.recorded.errorBoxes).toEqual([]);
    const win = e.windows[0];
    expect(win?.loaded).toBe(APP_INDEX_URL);
    // The session answers for the scheme (this checkout has no build to serve: 404), and
    // nothing outside the build comes through it.
    const page = await e.request(APP_INDEX_URL);
    expect([200, 404]).toContain(page.status);
    const outside = await e.request('app://renderer/..%2f..%2fpackage.json');
    expect(outside.status).toBe(404);
    // The page it loads is the one the IPC check trusts.
    if (!win) throw new Error('no window');
    await expect(e.invoke(win, 'connection.get', undefined)).resolves.toMatchObject({ ok: true });
    // A file:// page, which the window no longer loads, is refused.
    win.webContents.url =
      'file:///opt/Debusine%20Desktop/resources/app.asar/out/renderer/index.html';
    await expect(e.invoke(win, 'connection.get', undefined)).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });
});

describe('a start without the sandbox', () => {
  it('shows why it stops and ends, with no window and no lock', async () => {
    const e = await launch({}, ['--no-sandbox']);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    e.ready();
    await until(() => e.recorded.exited !== null);
    expect(e.recorded.exited).toEqual({ code: 1, via: 'exit' });
    expect(e.recorded.errorBoxes.map((box) => box.title)).toEqual([
      'Debusine Desktop will not run without its sandbox',
    ]);
    expect(e.windows).toEqual([]);
    expect(e.recorded.lockHeld).toBe(false);
  });

  it('goes on when the user allows it', async () => {
    process.env.DEBUSINE_DESKTOP_ALLOW_NO_SANDBOX = '1';
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const e = await launch({}, ['--no-sandbox']);
    e.ready();
    await until(() => e.windows.length > 0 || e.recorded.exited !== null);
    expect(e.recorded.errorBoxes).toEqual([]);
    expect(e.windows[0]?.loaded).toBe(APP_INDEX_URL);
  });
});
