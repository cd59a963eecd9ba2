/**
 * `npm start` where Electron is absent: the app in a window of its own, as a desktop app,
 * rather than an address to paste into a browser. Chromium's app mode (`--app=`) gives a
 * window with no tabs and no address bar, and a profile folder inside the app's data
 * directory keeps it apart from the user's own browsing: its own notification permission,
 * storage and history, which the user's browser never sees. Without Chromium, the
 * system's default browser opens the address (xdg-open) in a tab; without a display,
 * nothing opens and the host only serves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Debian's Chromium first, then the names other systems give it. */
const CHROMIUM = ['/usr/bin/chromium', 'chromium', 'chromium-browser'];

/** Where the app window's Chromium profile lives, inside the app's data directory. */
export function profileDirOf(dataDir: string): string {
  return join(dataDir, 'browser-profile');
}

/** A program as found on PATH (or as given, when it is a path); undefined when absent. */
export function findProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const candidates = name.includes('/')
    ? [name]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export type WindowPlan =
  | { kind: 'chromium'; command: string; args: string[]; profileDir: string }
  | { kind: 'default-browser'; command: string; args: string[] }
  | { kind: 'none'; why: string };

/**
 * What opens the app at `url`. DEBUSINE_DESKTOP_BROWSER_FLAGS adds Chromium flags
 * (whitespace-separated), for a test that runs the window headless; a headless Chromium
 * needs no display.
 */
export function planWindow(
  url: string,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  chromiumNames: readonly string[] = CHROMIUM,
): WindowPlan {
  const flags = (env.DEBUSINE_DESKTOP_BROWSER_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const headless = flags.some((flag) => flag.startsWith('--headless'));
  if (!headless && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return {
      kind: 'none',
      why: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)',
    };
  }
  const chromium = chromiumNames.map((name) => findProgram(name, env)).find(Boolean);
  if (chromium) {
    const profileDir = profileDirOf(dataDir);
    return {
      kind: 'chromium',
      command: chromium,
      args: [
        `--app=${url}`,
        `--user-data-dir=${profileDir}`,
        // The profile is the app's own: no welcome page, no offer to become the default.
        '--no-first-run',
        '--no-default-browser-check',
        ...flags,
      ],
      profileDir,
    };
  }
  const opener = findProgram('xdg-open', env);
  if (opener) return { kind: 'default-browser', command: opener, args: [url] };
  return { kind: 'none', why: 'neither Chromium nor xdg-open is installed' };
}

/** What opened the app, or why nothing did: the end of the one line `npm start` prints. */
export function describePlan(plan: WindowPlan): string {
  if (plan.kind === 'chromium') {
    return `the app opens in its own window (${plan.command} --app, profile ${plan.profileDir}).`;
  }
  if (plan.kind === 'default-browser') {
    return 'Chromium is not installed either, so the app opens in your default browser (xdg-open).';
  }
  return `no window opens, as ${plan.why}: open the address below in a browser.`;
}

const LAUNCH_PAGE = /^launch-[0-9a-f]{32}\.html$/;

/**
 * A page in the data directory that sends the browser on to `url`, for the window to open
 * instead of `url` itself. The address carries the key that opens a session, and a
 * command line is readable by every user of the machine (/proc/PID/cmdline): the window's
 * browser is given this file's name, which says nothing, while the file is the user's alone
 * (0600, in the data directory, which is 0700). Pages an earlier run left are removed.
 */
export async function writeLaunchPage(dataDir: string, url: string): Promise<string> {
  for (const name of await readdir(dataDir).catch(() => [])) {
    if (LAUNCH_PAGE.test(name)) await rm(join(dataDir, name), { force: true });
  }
  const path = join(dataDir, `launch-${randomBytes(16).toString('hex')}.html`);
  const attribute = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  await writeFile(
    path,
    '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
      `<title>Debusine Desktop</title><meta http-equiv="refresh" content="0;url=${attribute}">\n`,
    { mode: 0o600, flag: 'wx' },
  );
  return path;
}

/** The launch page as the browser is given it. */
export function launchUrl(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * Opens the window the plan names; the Chromium process, for the host to close with
 * itself, or undefined. A failure to start is told in one line; the host serves on.
 */
export function openWindow(
  plan: WindowPlan,
  log: (line: string) => void,
): ChildProcess | undefined {
  if (plan.kind === 'none') return undefined;
  // Chromium's own chatter (GPU, D-Bus, fonts) is not the app's to print.
  const child = spawn(plan.command, plan.args, { stdio: 'ignore' });
  child.on('error', (error) => {
    log(`Could not start ${plan.command}: ${error.message}. Open the address above in a browser.`);
  });
  if (plan.kind === 'default-browser') {
    // xdg-open hands the address to the browser and exits; the tab is the user's.
    child.unref();
    return undefined;
  }
  return child;
}
