/**
 * `npm start` where Electron's binary is absent opens the app in a window of its own:
 * Debian's Chromium in app mode (`--app=` the host's address), with a profile folder in the
 * app's data directory, and says so in one line; `npm run serve` only serves; without a
 * display, `npm start` says so and serves. The window's Chromium runs headless here (the
 * variable DEBUSINE_DESKTOP_BROWSER_FLAGS adds the flags), with a DevTools port through
 * which the test reads the page it loaded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Whether Electron's binary is installed, as scripts/start.mjs decides it. */
function electronInstalled(): boolean {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    return existsSync(pathFile) && existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8')));
  } catch {
    return false;
  }
}

/** The command lines of the running processes that mention `text`, by pid. */
function processesWith(text: string): Map<number, string[]> {
  const found = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue; // It ended meanwhile.
    }
    if (argv.some((arg) => arg.includes(text))) found.set(Number(entry), argv);
  }
  return found;
}

interface Started {
  child: ChildProcess;
  dataDir: string;
  output: () => string;
  /** Resolves with the output once it matches, failing after `ms`. */
  printed: (pattern: RegExp, ms?: number) => Promise<string>;
}

const started: Started[] = [];

/** Runs `npm start`'s script (or `npm run serve`'s, with --web) in a process group of its own. */
function start(args: string[], env: Record<string, string | undefined>): Started {
  const dataDir = mkdtempSync(join(tmpdir(), 'debusine-desktop-window-'));
  const environment: Record<string, string | undefined> = {
    ...process.env,
    DEBUSINE_DESKTOP_DATA_DIR: dataDir,
    DEBUSINE_DESKTOP_CLI_CONFIG: join(dataDir, 'no-cli-config.ini'),
    ...env,
  };
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), ...args], {
    cwd: ROOT,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own group: the end of the test stops the script, the host and the window at once.
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const printed = (pattern: RegExp, ms = 60_000): Promise<string> =>
    new Promise((resolvePrinted, reject) => {
      const timer = setInterval(() => {
        if (pattern.test(output)) {
          clearInterval(timer);
          clearTimeout(limit);
          resolvePrinted(output);
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          clearTimeout(limit);
          reject(new Error(`start.mjs exited (${String(child.exitCode)}):\n${output}`));
        }
      }, 100);
      const limit = setTimeout(() => {
        clearInterval(timer);
        reject(new Error(`${String(pattern)} not printed within ${String(ms)} ms:\n${output}`));
      }, ms);
    });
  const run = { child, dataDir, output: () => output, printed };
  started.push(run);
  return run;
}

/** Stops the whole group, waits until none of its processes is left, removes the data. */
async function stop(run: Started): Promise<void> {
  if (run.child.pid !== undefined && run.child.exitCode === null) {
    try {
      process.kill(-run.child.pid, 'SIGTERM');
    } catch {
      // The group is gone already.
    }
  }
  await expect
    .poll(() => processesWith(run.dataDir).size, { timeout: 15_000 })
    .toBe(0)
    .catch(() => {
      // Whatever did not stop at SIGTERM does now.
      for (const pid of processesWith(run.dataDir).keys()) process.kill(pid, 'SIGKILL');
    });
  rmSync(run.dataDir, { recursive: true, force: true });
}

/** What a headless window needs here: no sandbox as root, no GPU, no background traffic. */
const HEADLESS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--remote-debugging-port=0',
].join(' ');

const SERVING = /Debusine Desktop is serving on (http:\/\/127\.0\.0\.1:\d+)\/#key=/;

describe.runIf(!electronInstalled() && existsSync('/usr/bin/chromium'))(
  'npm start without Electron',
  () => {
    afterEach(async () => {
      for (const run of started.splice(0)) await stop(run);
    });

    it("opens the app in Chromium's app mode, with a profile in the data directory", async () => {
      const run = start([], { DEBUSINE_DESKTOP_BROWSER_FLAGS: HEADLESS, DISPLAY: undefined });
      const output = await run.printed(SERVING);
      const origin = SERVING.exec(output)?.[1] ?? '';
      const profile = join(run.dataDir, 'browser-profile');
      // One line says what opens, and where its profile is.
      const said = output.split('\n').filter((line) => line.includes('own window'));
      expect(said).toEqual([
        `Electron's binary is not installed here (\`npx install-electron\` fetches it): the app opens in its own window (/usr/bin/chromium --app, profile ${profile}).`,
      ]);

      // Chromium runs with the address the host printed, in app mode, with that profile.
      await expect
        .poll(() => processesWith(`--user-data-dir=${profile}`).size, { timeout: 30_000 })
        .toBeGreaterThan(0);
      const browsers = [...processesWith(`--user-data-dir=${profile}`).values()].filter((argv) =>
        argv.some((arg) => arg.startsWith('--app=')),
      );
      expect(browsers.length).toBeGreaterThan(0);
      // Not the address itself: any user of the machine can read a command line, and the
      // address holds the key to a session. A page of the data directory, the user's alone,
      // sends the window on to it.
      for (const argv of browsers) {
        expect(argv.join(' ')).not.toContain('key=');
        expect(argv.find((arg) => arg.startsWith('--app='))).toMatch(
          new RegExp(`^--app=file://${run.dataDir}/launch-[0-9a-f]{32}\\.html$`),
        );
      }
      const launchPages = () =>
        readdirSync(run.dataDir).filter((name) => name.startsWith('launch-'));
      expect(launchPages()).toHaveLength(1);
      const [launchPage] = launchPages();
      expect(statSync(join(run.dataDir, launchPage ?? '')).mode & 0o777).toBe(0o600);

      // The page it loaded is the app, which traded the address's key for its session; the
      // launch page is gone with the key.
      await run.printed(/That address is used now/, 30_000);
      await expect.poll(launchPages, { timeout: 10_000 }).toEqual([]);
      const portFile = join(profile, 'DevToolsActivePort');
      await expect.poll(() => existsSync(portFile), { timeout: 30_000 }).toBe(true);
      const devtools = readFileSync(portFile, 'utf8').split('\n')[0] ?? '';
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${devtools}`);
      try {
        const page = browser
          .contexts()
          .flatMap((context) => context.pages())
          .find((p) => p.url().startsWith(origin));
        expect(page, `no page of ${origin}`).toBeDefined();
        if (!page) return;
        await page.getByTestId('app-shell').waitFor({ timeout: 30_000 });
        await expect(page.title()).resolves.toBe('Debusine Desktop');
        // The key left the address bar once used.
        expect(page.url()).toBe(`${origin}/`);
      } finally {
        await browser.close();
      }

      // Stopping the app (start.mjs passes SIGTERM on to the host) closes its window.
      expect(processesWith(profile).size).toBeGreaterThan(0);
      run.child.kill('SIGTERM');
      await expect.poll(() => processesWith(profile).size, { timeout: 15_000 }).toBe(0);
    });

    it('serves only, with no window, for npm run serve', async () => {
      const run = start(['--web'], { DEBUSINE_DESKTOP_BROWSER_FLAGS: HEADLESS });
      const output = await run.printed(SERVING);
      expect(output).not.toContain('own window');
      expect(output).not.toContain('Electron');
      // Nothing opened: no browser with the app's profile, nobody used the address.
      await new Promise((resolveWait) => setTimeout(resolveWait, 3_000));
      expect(processesWith(join(run.dataDir, 'browser-profile')).size).toBe(0);
      expect(run.output()).not.toContain('That address is used now');
    });

    it('says so in one line and serves where there is no display', async () => {
      const run = start([], { DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
      const output = await run.printed(SERVING);
      expect(output).toContain(
        "Electron's binary is not installed here (`npx install-electron` fetches it): no window opens, as there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set): open the address below in a browser.",
      );
      await new Promise((resolveWait) => setTimeout(resolveWait, 2_000));
      expect(processesWith(join(run.dataDir, 'browser-profile')).size).toBe(0);
    });
  },
);
