import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_METHODS, REQUEST_CHANNELS, splitChannel } from '../../src/shared/contract-names';
import { testCaller } from '../support/caller';

// A fake `electron`: records what the shell asks of it.
const fake = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => unknown;
  const diskFiles = new WeakMap<Blob, string>();
  const windows: {
    options: Record<string, unknown>;
    handlers: Map<string, Handler>;
    openHandler?: Handler;
  }[] = [];
  class BrowserWindow {
    webContents: {
      on: (name: string, h: Handler) => void;
      setWindowOpenHandler: (h: Handler) => void;
    };
    constructor(options: Record<string, unknown>) {
      const record: (typeof windows)[number] = { options, handlers: new Map() };
      windows.push(record);
      this.webContents = {
        on: (name, h) => record.handlers.set(name, h),
        setWindowOpenHandler: (h) => {
          record.openHandler = h;
        },
      };
    }
    // The shell calls these; the fake has nothing to do for them.
    once(): void {
      return undefined;
    }
    maximize(): void {
      return undefined;
    }
  }
  return {
    windows,
    BrowserWindow,
    shell: { openExternal: vi.fn(() => Promise.resolve()) },
    exposed: new Map<string, unknown>(),
    ipcRenderer: { invoke: vi.fn(), send: vi.fn(), on: vi.fn() },
    /** Files the user dropped from the disk, with the path Chromium keeps for each. */
    diskFiles,
    webUtils: {
      // shell/renderer/api/electron_api_web_utils.cc: anything not a Blob throws
      // "getPathForFile expected to receive a File object but one was not provided";
      // otherwise it returns `blob.Path()`, empty for a Blob or File the page made itself.
      getPathForFile: vi.fn((file: unknown) => {
        if (!(file instanceof Blob)) {
          throw new TypeError(
            'getPathForFile expected to receive a File object but one was not provided',
          );
        }
        return diskFiles.get(file) ?? '';
      }),
    },
  };
});

vi.mock('electron', () => ({
  BrowserWindow: fake.BrowserWindow,
  shell: fake.shell,
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => fake.exposed.set(key, value),
  },
  ipcRenderer: fake.ipcRenderer,
  webUtils: fake.webUtils,
}));

const { createMainWindow } = await import('../../src/main/app/window');
const { registerIpc } = await import('../../src/main/app/ipc');
const { appUrlMatcher, isTrustedSender } = await import('../../src/main/app/sender');
const { StagedFiles, expandDropped } = await import('../../src/main/service/staged-files');

const APP = 'app://renderer/index.html';
const isAppUrl = appUrlMatcher(APP);

describe('the main window', () => {
  beforeEach(() => {
    fake.windows.length = 0;
    fake.shell.openExternal.mockClear();
  });

  it('is isolated and sandboxed, with no Node and no webviews', () => {
    createMainWindow({
      preload: '/p.cjs',
      icon: '/opt/debusine-desktop/resources/icon.png',
      state: { width: 900, height: 600, maximized: false },
      isAppUrl,
    });
    const options = fake.windows[0]?.options;
    expect(options?.webPreferences).toMatchObject({
      preload: '/p.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(options).toMatchObject({
      width: 900,
      height: 600,
      icon: '/opt/debusine-desktop/resources/icon.png',
    });
  });

  it('opens no windows, and sends http(s) links to the system browser', () => {
    createMainWindow({
      preload: '/p.cjs',
      icon: '/opt/debusine-desktop/resources/icon.png',
      state: { width: 900, height: 600, maximized: false },
      isAppUrl,
    });
    const win = fake.windows[0];
    expect(win?.openHandler?.({ url: 'https://debusine.debian.net/' })).toEqual({ action: 'deny' });
    expect(win?.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.shell.openExternal.mock.calls).toEqual([['https://debusine.debian.net/']]);
  });

  it('never navigates away from the app', () => {
    createMainWindow({
      preload: '/p.cjs',
      icon: '/opt/debusine-desktop/resources/icon.png',
      state: { width: 900, height: 600, maximized: false },
      isAppUrl,
    });
    const navigate = fake.windows[0]?.handlers.get('will-navigate');
    const attempt = (url: string): boolean => {
      const event = { preventDefault: vi.fn() };
      navigate?.(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(attempt(APP)).toBe(false);
    expect(attempt(`${APP}#/work-requests`)).toBe(false);
    expect(attempt('https://evil.example/')).toBe(true);
    expect(attempt('file:///etc/passwd')).toBe(true);
    expect(attempt('javascript:alert(1)')).toBe(true);
    expect(fake.shell.openExternal.mock.calls).toEqual([['https://evil.example/']]);
  });
});

describe('the IPC sender check', () => {
  const policy = { windowIds: new Set([1]), isAppUrl };
  const event = (id: number, url: string, parent: unknown = null) => ({
    sender: { id },
    senderFrame: { url, parent },
  });

  it('accepts only the top frame of an app window showing the app', () => {
    expect(isTrustedSender(event(1, APP), policy)).toBe(true);
    expect(isTrustedSender(event(1, APP, {}), policy)).toBe(false);
    expect(isTrustedSender(event(2, APP), policy)).toBe(false);
    expect(isTrustedSender(event(1, 'https://evil.example/'), policy)).toBe(false);
    expect(isTrustedSender({ sender: { id: 1 }, senderFrame: null }, policy)).toBe(false);
  });

  it('puts every request handler behind the check', async () => {
    const handlers = new Map<string, (...a: unknown[]) => Promise<unknown>>();
    const dispatch = vi.fn(() => Promise.resolve({ ok: true as const, result: 'answer' }));
    const page = testCaller();
    const listeners = new Map<string, (...a: unknown[]) => void>();
    const onReady = vi.fn();
    const onAck = vi.fn();
    registerIpc({
      ipcMain: {
        handle: (channel: string, h: (...a: unknown[]) => Promise<unknown>) =>
          handlers.set(channel, h),
        on: (channel: string, l: (...a: unknown[]) => void) => listeners.set(channel, l),
        removeHandler: vi.fn(),
      } as never,
      dispatch,
      files: new StagedFiles(),
      policy,
      callerOf: (id) => (id === 1 ? page : undefined),
      onReady,
      onAck,
    });
    // What a page says of its events counts only from the app's own top frame.
    listeners.get('debusine:ready')?.(event(1, APP, {}));
    listeners.get('debusine:ack')?.(event(1, 'https://evil.example/'), 5);
    listeners.get('debusine:ack')?.(event(7, APP), 5);
    expect(onReady).not.toHaveBeenCalled();
    expect(onAck).not.toHaveBeenCalled();
    listeners.get('debusine:ready')?.(event(1, APP));
    listeners.get('debusine:ack')?.(event(1, APP), 5);
    expect(onReady).toHaveBeenCalledWith(1);
    expect(onAck).toHaveBeenCalledWith(1, 5);
    for (const channel of REQUEST_CHANNELS) expect(handlers.has(channel)).toBe(true);
    const retry = handlers.get('workRequests.retry');
    await expect(retry?.(event(1, APP), { id: 3 })).resolves.toEqual({
      ok: true,
      result: 'answer',
    });
    // The request is the page's: what it opens is held by the page in that window.
    expect(dispatch).toHaveBeenCalledWith('workRequests.retry', { id: 3 }, page);
    dispatch.mockClear();
    await expect(retry?.(event(1, APP, {}), { id: 3 })).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    await expect(retry?.(event(7, APP), { id: 3 })).resolves.toMatchObject({ ok: false });
    expect(dispatch).not.toHaveBeenCalled();
    const stage = handlers.get('debusine:stage-paths');
    await expect(stage?.(event(1, APP), [import.meta.filename])).resolves.toMatchObject({
      ok: true,
      result: [{ name: 'electron-shell.test.ts' }],
    });
    await expect(stage?.(event(1, APP), ['relative/path'])).resolves.toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
    await expect(stage?.(event(1, APP), '/etc/passwd')).resolves.toMatchObject({ ok: false });

    // A dropped folder stands for its files, walked as the browser host's page walks one:
    // regular files, three levels down, no symbolic link followed. Each is the page's.
    const dir = await mkdtemp(join(tmpdir(), 'electron-drop-'));
    try {
      await mkdir(join(dir, 'upload', 'a', 'b', 'c', 'd'), { recursive: true });
      await writeFile(join(dir, 'upload', 'hello_1.0.dsc'), 'dsc');
      await writeFile(join(dir, 'upload', 'hello_1.0.tar.xz'), 'tar');
      await writeFile(join(dir, 'upload', 'a', 'b', 'three-down.log'), 'x');
      await writeFile(join(dir, 'upload', 'a', 'b', 'c', 'four-down.log'), 'x');
      await symlink('/etc', join(dir, 'upload', 'etc-link'));
      await symlink('/etc/hostname', join(dir, 'upload', 'hostname-link'));
      const held = page.size;
      const folder = await stage?.(event(1, APP), [join(dir, 'upload')]);
      expect(folder).toMatchObject({ ok: true });
      const names = (folder as { result: { name: string }[] }).result.map((f) => f.name);
      expect(names).toEqual(['three-down.log', 'hello_1.0.dsc', 'hello_1.0.tar.xz']);
      expect(page.size).toBe(held + 3);
      // Past the limit (10,000 here), nothing is staged and the drop says why.
      await mkdir(join(dir, 'many'));
      await Promise.all(['a', 'b', 'c', 'd'].map((n) => writeFile(join(dir, 'many', n), '')));
      await expect(expandDropped([join(dir, 'many')], 3)).rejects.toMatchObject({
        code: 'validation',
        message: 'The drop holds more than 3 files: drop the folder that holds the upload',
      });
      expect(page.size).toBe(held + 3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the preload', () => {
  it('exposes exactly the contract as window.debusine, and not ipcRenderer', async () => {
    await import('../../src/preload/index');
    expect([...fake.exposed.keys()]).toEqual(['debusine']);
    const api = fake.exposed.get('debusine') as Record<string, unknown>;
    const expected = new Map<string, string[]>();
    for (const channel of [...REQUEST_CHANNELS, ...LOCAL_METHODS]) {
      const [ns, method] = splitChannel(channel);
      expected.set(ns, [...(expected.get(ns) ?? []), method]);
    }
    expect(Object.keys(api).sort()).toEqual(['on', ...expected.keys()].sort());
    for (const [ns, methods] of expected) {
      const group = api[ns] as Record<string, unknown>;
      expect(Object.keys(group).sort()).toEqual([...methods].sort());
      for (const m of methods) expect(typeof group[m]).toBe('function');
    }
    expect(JSON.stringify(Object.keys(api))).not.toMatch(/ipc|invoke|send/i);
  });

  it('forwards a request as one argument, and limits `on` to contract events', async () => {
    await import('../../src/preload/index');
    const api = fake.exposed.get('debusine') as {
      workRequests: { get: (...a: unknown[]) => Promise<unknown> };
      on: (e: string, l: () => void) => () => void;
      files: { stageDropped: (f: unknown[]) => Promise<unknown> };
    };
    fake.ipcRenderer.invoke.mockResolvedValue({ ok: true, result: 1 });
    await api.workRequests.get({ id: 1 }, 'extra');
    expect(fake.ipcRenderer.invoke).toHaveBeenLastCalledWith('workRequests.get', { id: 1 });
    expect(() => api.on('ipc-message', () => undefined)).toThrow(/Not a Debusine Desktop event/);
    const off = api.on('workRequest.completed', () => undefined);
    expect(typeof off).toBe('function');
    await Promise.resolve();
    expect(fake.ipcRenderer.send).toHaveBeenCalledWith('debusine:ready');
    // What the page makes up is refused: an object that says it has a path, a File of its
    // own (which has none), and a drop with one of them among real files.
    const dropped = new File(['x'], 'a.dsc');
    fake.diskFiles.set(dropped, '/home/u/a.dsc');
    const madeUp = [
      [{ name: 'made-up', size: 1, path: '/etc/passwd' }],
      [new File(['x'], 'page-made.dsc')],
      [dropped, { name: 'made-up', size: 1, path: '/etc/passwd' }],
    ];
    for (const files of madeUp) {
      fake.ipcRenderer.invoke.mockClear();
      await expect(api.files.stageDropped(files)).resolves.toMatchObject({
        ok: false,
        error: { code: 'validation' },
      });
      expect(fake.ipcRenderer.invoke).not.toHaveBeenCalled();
    }
    await api.files.stageDropped([dropped]);
    expect(fake.ipcRenderer.invoke).toHaveBeenLastCalledWith('debusine:stage-paths', [
      '/home/u/a.dsc',
    ]);
  });

  it('says how many events it handed to the page, in batches, whatever they held', async () => {
    await import('../../src/preload/index');
    const api = fake.exposed.get('debusine') as {
      on: (e: string, l: (payload: unknown) => void) => () => void;
    };
    const onEvent = fake.ipcRenderer.on.mock.calls.find(
      (call: unknown[]) => call[0] === 'debusine:event',
    )?.[1] as ((event: unknown, message: unknown) => void) | undefined;
    if (!onEvent) throw new Error('the preload listens to no events');
    const seen: unknown[] = [];
    api.on('workRequests.changed', (payload) => seen.push(payload));
    fake.ipcRenderer.send.mockClear();
    const acks = () =>
      fake.ipcRenderer.send.mock.calls.filter((call: unknown[]) => call[0] === 'debusine:ack');
    for (let n = 0; n < 300; n++) onEvent({}, { event: 'workRequests.changed', payload: n });
    // Not one message back per event: one for the first 256 at once…
    expect(acks()).toEqual([['debusine:ack', 256]]);
    // …something not an event, which main counted all the same…
    onEvent({}, { event: 'not-an-event', payload: 1 });
    onEvent({}, null);
    // …and the rest a moment later.
    await new Promise((r) => setTimeout(r, 250));
    expect(acks()).toEqual([
      ['debusine:ack', 256],
      ['debusine:ack', 46],
    ]);
    expect(seen).toHaveLength(300);
  });
});
