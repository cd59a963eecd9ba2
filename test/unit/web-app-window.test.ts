/**
 * What `npm start` opens where Electron is absent: Chromium's app mode with the app's own
 * profile, else the default browser, else nothing (no display); and the port the web host
 * asks for again, so that the browser keeps the page's permissions from one run to the next.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describePlan, findProgram, planWindow } from '../../src/main/web/app-window';
import { portTaken, rememberedPort, rememberPort } from '../../src/main/web/remembered-port';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'app-window-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A PATH holding executables of these names (and a non-executable `ignored`). */
function pathWith(...names: string[]): string {
  const dir = tempDir();
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  writeFileSync(join(dir, 'ignored'), '');
  return dir;
}

const URL_ = 'http://127.0.0.1:4000/#key=abc';

describe('the window npm start opens', () => {
  it('finds programs on PATH, executables only', () => {
    const path = pathWith('chromium-browser');
    expect(findProgram('chromium-browser', { PATH: path })).toBe(join(path, 'chromium-browser'));
    expect(findProgram('ignored', { PATH: path })).toBeUndefined();
    expect(findProgram('chromium', { PATH: path })).toBeUndefined();
  });

  it("is Chromium's app mode, with a profile in the data directory", () => {
    const path = pathWith('chromium-browser', 'xdg-open');
    const env = { PATH: path, DISPLAY: ':0' };
    const plan = planWindow(URL_, '/data', env);
    // Debian's /usr/bin/chromium comes first where it is installed.
    const chromium = findProgram('/usr/bin/chromium', env) ?? join(path, 'chromium-browser');
    expect(plan).toEqual({
      kind: 'chromium',
      command: chromium,
      args: [
        `--app=${URL_}`,
        '--user-data-dir=/data/browser-profile',
        '--no-first-run',
        '--no-default-browser-check',
      ],
      profileDir: '/data/browser-profile',
    });
    expect(describePlan(plan)).toBe(
      `the app opens in its own window (${chromium} --app, profile /data/browser-profile).`,
    );
  });

  it('is the default browser where there is no Chromium', () => {
    const path = pathWith('xdg-open');
    const env = { PATH: path, WAYLAND_DISPLAY: 'wayland-0' };
    // The names looked for on PATH, without Debian's /usr/bin/chromium, which is here.
    const plan = planWindow(URL_, '/data', env, ['chromium', 'chromium-browser']);
    expect(plan).toEqual({
      kind: 'default-browser',
      command: join(path, 'xdg-open'),
      args: [URL_],
    });
    expect(describePlan(plan)).toBe(
      'Chromium is not installed either, so the app opens in your default browser (xdg-open).',
    );
    expect(planWindow(URL_, '/data', { PATH: pathWith(), DISPLAY: ':0' }, ['chromium'])).toEqual({
      kind: 'none',
      why: 'neither Chromium nor xdg-open is installed',
    });
  });

  it('is none without a display, unless the flags make Chromium headless', () => {
    const path = pathWith('chromium', 'xdg-open');
    expect(planWindow(URL_, '/data', { PATH: path })).toEqual({
      kind: 'none',
      why: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)',
    });
    const headless = planWindow(URL_, '/data', {
      PATH: path,
      DEBUSINE_DESKTOP_BROWSER_FLAGS: ' --headless=new  --no-sandbox ',
    });
    expect(headless.kind).toBe('chromium');
    if (headless.kind === 'chromium') {
      expect(headless.args.slice(-2)).toEqual(['--headless=new', '--no-sandbox']);
    }
  });
});

describe("the web host's port", () => {
  it('is remembered in the data directory; a damaged file means none', async () => {
    const dir = tempDir();
    await expect(rememberedPort(dir)).resolves.toBeUndefined();
    await rememberPort(dir, 41234);
    await expect(rememberedPort(dir)).resolves.toBe(41234);
    writeFileSync(join(dir, 'web-host.json'), '{"port": "80"}');
    await expect(rememberedPort(dir)).resolves.toBeUndefined();
    writeFileSync(join(dir, 'web-host.json'), 'not json');
    await expect(rememberedPort(dir)).resolves.toBeUndefined();
  });

  it('tells a port another program holds', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const second = createServer();
    const error = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    expect(portTaken(error)).toBe(true);
    expect(portTaken(new Error('other'))).toBe(false);
    await new Promise((resolve) => holder.close(resolve));
  });
});
