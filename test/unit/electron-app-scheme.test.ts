/**
 * main.ts serves the window's page from app:// (app-protocol.ts): the scheme is registered
 * before `ready`, as Electron requires, handled on the window's session, and the window
 * loads its page from it and trusts that page. And it does not run without Chromium's
 * sandbox unless told to (sandbox-check.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeElectron, type FakeElectron } from '../support/fake-electron';
import { APP_INDEX_URL } from '../../src/main/app/app-protocol';

const fake = await vi.hoisted(async () => {
  const { createFakeElectron: create } = await import('../support/fake-electron');
  return { current: create({ userData: '/nonexistent' }) };
});
vi.mock('electron', async () => {
  const { electronModule } = await import('../support/fake-electron');
  return electronModule(() => fake.current);
});

vi.setConfig({ testTimeout: 30_000 });

const ENV_KEYS = [
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'DEBUSINE_DESKTOP_DPUT_DIRS',
  'DEBUSINE_DESKTOP_ALLOW_NO_SANDBOX',
];
const savedArgv = process.argv;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ddt-scheme-'));
  // Nothing of the user's: no CLI config, no dput-ng profiles.
  process.env.HOME = dir;
  process.env.XDG_CONFIG_HOME = join(dir, 'config');
  process.env.XDG_DATA_HOME = join(dir, 'share');
  process.env.DEBUSINE_DESKTOP_DPUT_DIRS = join(dir, 'dput');
});

afterEach(async () => {
  vi.restoreAllMocks();
  if (!fake.current.recorded.exited) fake.current.module.app.quit();
  await until(() => fake.current.recorded.exited !== null);
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

async function launch(argv: string[] = []): Promise<FakeElectron> {
  const e = createFakeElectron({ userData: join(dir, 'data') });
  fake.current = e;
  process.argv = ['/opt/Debusine Desktop/debusine-desktop', ...argv];
  vi.resetModules();
  await import('../../src/main/app/main');
  return e;
}

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
    const e = await launch(['--no-sandbox']);
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
    const e = await launch(['--no-sandbox']);
    e.ready();
    await until(() => e.windows.length > 0 || e.recorded.exited !== null);
    expect(e.recorded.errorBoxes).toEqual([]);
    expect(e.windows[0]?.loaded).toBe(APP_INDEX_URL);
  });
});
