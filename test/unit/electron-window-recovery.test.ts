/**
 * The window when its page's renderer ends or stops answering, against a fake `electron`
 * that emits `render-process-gone`, `unresponsive`, `responsive` and the app's
 * `child-process-gone` as Electron 45 does (test/support/fake-electron.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFakeElectron,
  mockedElectron,
  type FakeBrowserWindow,
  type FakeElectron,
  type RenderProcessGoneReason,
} from '../support/fake-electron';

const fake = mockedElectron;
vi.mock('electron', async () => (await import('../support/fake-electron')).mockedElectronModule());

const { createMainWindow } = await import('../../src/main/app/window');
const { CRASH_REPEAT_MS, UNRESPONSIVE_ASK_MS, logChildProcessesGone, recoverWindow } =
  await import('../../src/main/app/window-recovery');

const APP = 'file:///opt/debusine-desktop/out/renderer/index.html';

let e: FakeElectron;
let clock: number;
let quits: number;

beforeEach(() => {
  e = createFakeElectron({ userData: '/nonexistent' });
  fake.current = e;
  clock = 1_000_000;
  quits = 0;
  e.module.app.on('before-quit', () => {
    quits++;
  });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The app's window, shown (its page painted) unless `shown` is false. */
function openWindow(shown = true): FakeBrowserWindow {
  const created = createMainWindow({
    preload: '/p.cjs',
    icon: '/opt/debusine-desktop/resources/icon.png',
    state: { width: 900, height: 600, maximized: false },
    isAppUrl: (url) => url.startsWith(APP),
  });
  recoverWindow(created, { now: () => clock });
  const win = e.windows.at(-1);
  if (!win) throw new Error('no window');
  win.webContents.url = APP;
  if (shown) e.readyToShow(win);
  return win;
}

const titles = () => e.recorded.messageBoxes.map((box) => box.message);
/** Lets the answer to a message box reach the app. */
const settle = () => new Promise((r) => setImmediate(r));

describe('a page whose renderer crashes', () => {
  const CRASHES: RenderProcessGoneReason[] = [
    'abnormal-exit',
    'killed',
    'crashed',
    'oom',
    'launch-failed',
    'integrity-failure',
    'memory-eviction',
  ];

  it.each(CRASHES)('is reloaded once, with a line saying so (%s)', async (reason) => {
    const win = openWindow();
    await win.webContents.processGone(reason);
    expect(win.webContents.reloads).toBe(1);
    expect(win.webContents.isCrashed()).toBe(false);
    expect(titles()).toEqual(['The window was reloaded']);
    expect(e.recorded.messageBoxes[0]?.detail).toContain("The window's page");
  });

  it('is not reloaded when it ended cleanly', async () => {
    const win = openWindow();
    await win.webContents.processGone('clean-exit');
    expect(win.webContents.reloads).toBe(0);
    expect(titles()).toEqual([]);
  });

  it('asks to reload or quit when it crashes again soon after, and quits if told to', async () => {
    const win = openWindow();
    await win.webContents.processGone('crashed');
    clock += CRASH_REPEAT_MS - 1;
    e.dialogs.answer = (options) => options.buttons?.indexOf('Quit') ?? -1;
    await win.webContents.processGone('crashed');
    await settle();
    // Not reloaded a second time without asking.
    expect(win.webContents.reloads).toBe(1);
    expect(titles()).toEqual(['The window was reloaded', "The window's page crashed again"]);
    expect(e.recorded.messageBoxes[1]?.buttons).toEqual(['Reload', 'Quit']);
    expect(quits).toBe(1);
    expect(e.recorded.exited).toEqual({ code: 0, via: 'quit' });
  });

  it('is reloaded again when the user says so, and asked again if it keeps crashing', async () => {
    const win = openWindow();
    await win.webContents.processGone('crashed');
    clock += 1_000;
    e.dialogs.answer = (options) => options.buttons?.indexOf('Reload') ?? -1;
    await win.webContents.processGone('oom');
    await settle();
    expect(win.webContents.reloads).toBe(2);
    clock += 1_000;
    await win.webContents.processGone('crashed');
    await settle();
    expect(win.webContents.reloads).toBe(3);
    expect(titles().filter((t) => t === "The window's page crashed again")).toHaveLength(2);
    expect(quits).toBe(0);
  });

  it('is reloaded without asking when the crash before was long ago', async () => {
    const win = openWindow();
    await win.webContents.processGone('crashed');
    clock += CRASH_REPEAT_MS;
    await win.webContents.processGone('crashed');
    expect(win.webContents.reloads).toBe(2);
    expect(titles()).toEqual(['The window was reloaded', 'The window was reloaded']);
  });

  it('before the window was ever shown, shows the window rather than leave it hidden', async () => {
    const win = openWindow(false);
    expect(win.isVisible()).toBe(false);
    await win.webContents.processGone('crashed');
    expect(win.isVisible()).toBe(true);
    expect(win.webContents.reloads).toBe(1);
    // Crashing again at once: the window is shown with the question over it; quitting ends it.
    e.dialogs.answer = () => 1;
    await win.webContents.processGone('launch-failed');
    await settle();
    expect(win.isVisible()).toBe(true);
    expect(e.recorded.exited).toEqual({ code: 0, via: 'quit' });
  });

  it('is left alone when the window is gone', async () => {
    const win = openWindow();
    win.destroy();
    await win.webContents.processGone('crashed');
    expect(win.webContents.reloads).toBe(0);
    expect(titles()).toEqual([]);
  });
});

describe('a page that stops answering', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  it('asks whether to wait or reload once it stays so, and reloads in a new renderer', async () => {
    const win = openWindow();
    win.webContents.becomeUnresponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS - 1);
    expect(titles()).toEqual([]);
    e.dialogs.answer = (options) => options.buttons?.indexOf('Reload') ?? -1;
    await vi.advanceTimersByTimeAsync(1);
    expect(titles()).toEqual(['The window is not responding']);
    expect(e.recorded.messageBoxes[0]?.buttons).toEqual(['Wait', 'Reload']);
    let gone = 0;
    win.webContents.on('render-process-gone', () => gone++);
    await settle();
    expect(win.webContents.forcedCrashes).toBe(1);
    expect(win.webContents.reloads).toBe(1);
    // The renderer the app ended is gone after the reload: that is no crash to answer.
    while (gone === 0) await settle();
    expect(win.webContents.reloads).toBe(1);
    expect(titles()).toEqual(['The window is not responding']);
  });

  it('is not asked about when it answers again in time', async () => {
    const win = openWindow();
    win.webContents.becomeUnresponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS - 1);
    win.webContents.becomeResponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS * 2);
    expect(titles()).toEqual([]);
    expect(win.webContents.reloads).toBe(0);
  });

  it('takes the question back when it answers while the question is open', async () => {
    const win = openWindow();
    // The user does not answer.
    e.dialogs.answer = () => new Promise<number>(() => undefined);
    win.webContents.becomeUnresponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS);
    const question = e.recorded.messageBoxes[0] as { signal?: AbortSignal } | undefined;
    expect(question?.signal?.aborted).toBe(false);
    win.webContents.becomeResponsive();
    expect(question?.signal?.aborted).toBe(true);
    await settle();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS * 2);
    expect(win.webContents.reloads).toBe(0);
    expect(win.webContents.forcedCrashes).toBe(0);
    expect(titles()).toHaveLength(1);
  });

  it('is asked about again after waiting, if it still does not answer', async () => {
    const win = openWindow();
    e.dialogs.answer = (options) => options.buttons?.indexOf('Wait') ?? -1;
    win.webContents.becomeUnresponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS);
    await settle();
    expect(titles()).toHaveLength(1);
    // Electron does not say it again while the page stays unresponsive.
    win.webContents.becomeUnresponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS);
    await settle();
    expect(titles()).toHaveLength(2);
    win.webContents.becomeResponsive();
    await vi.advanceTimersByTimeAsync(UNRESPONSIVE_ASK_MS * 3);
    expect(titles()).toHaveLength(2);
    expect(win.webContents.reloads).toBe(0);
  });
});

describe('the GPU process ending', () => {
  it('is logged with its reason', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    logChildProcessesGone();
    e.childProcessGone({ type: 'GPU', reason: 'crashed', exitCode: 139 });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('The GPU process crashed (exit code 139)'),
    );
    expect(e.windows).toEqual([]);
  });
});
