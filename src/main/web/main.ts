/**
 * `npm run serve` (and `npm start` without Electron): the web host process. Profiles,
 * tokens (a 0600 file) and the rest live in the data directory; tokens stay in this
 * process. DEBUSINE_DESKTOP_API_URL/_TOKEN/_SCOPE/_WORKSPACE seed a signed-in profile.
 * With `--window` (`npm start`) it also opens the app in a window of its own
 * (app-window.ts). It listens on the port of its last run when that is free (see
 * remembered-port.ts), unless DEBUSINE_DESKTOP_PORT names one (0: any free port).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { dataDirFrom } from './data-dir';
import { createDispatcher } from '../bridge/dispatch';
import { EventHub } from '../bridge/event-outbox';
import { PageNotifier } from '../notify/page-notifier';
import { createService } from '../composition-root';
import { StagedFiles } from '../service/staged-files';
import { FileTokenStore } from '../settings/token-store';
import { logUnhandledRejections } from '../unhandled';
import { startWebHost, type WebHostOptions } from './host';
import { describePlan, launchUrl, openWindow, planWindow, writeLaunchPage } from './app-window';
import { portTaken, rememberedPort, rememberPort } from './remembered-port';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DEBUSINE_DESKTOP_PORT must be a port number, not ${JSON.stringify(value)}`);
  }
  return port;
}

async function main(): Promise<void> {
  const env = process.env;
  const dataDir = dataDirFrom(env);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const hub = new EventHub();
  const files = new StagedFiles((path) => rm(path, { force: true }));
  // Main has no desktop here: the page shows the notifications through the browser.
  const notifier = new PageNotifier(hub.emit.bind(hub));
  const service = createService({
    dataDir,
    tokens: new FileTokenStore(dataDir),
    notifier,
    files,
    host: {
      transport: 'web',
      platform: process.platform,
      activateNotification: (key) => notifier.activate(key),
    },
    emit: hub.emit.bind(hub),
    env,
  });
  await service.start();
  const dispatch = createDispatcher(service.handlers, {
    onInternalError: (channel, error) => {
      console.error(`Request ${channel} failed unexpectedly:`, error);
    },
  });
  // The page the window opens, which holds the address with its key (app-window.ts).
  let launchPage: string | undefined;
  const forgetLaunchPage = (): void => {
    if (launchPage !== undefined) void rm(launchPage, { force: true });
  };
  const options: WebHostOptions = {
    root: resolve(import.meta.dirname, '../renderer'),
    dispatch,
    hub,
    files,
    downloads: service.downloads,
    host: env.DEBUSINE_DESKTOP_HOST ?? '127.0.0.1',
    // Staged files next to the drafts, so that drafts can hard-link them.
    stagingDir: await mkdirStaging(dataDir),
    // Each address opens one tab (its key is then refused: the browser's history keeps
    // it), so the next is printed as soon as one is used.
    onNewAddress: (url) => {
      forgetLaunchPage();
      console.log(`That address is used now; for another tab, open ${url}`);
    },
  };
  const host = await listen(options, dataDir, env.DEBUSINE_DESKTOP_PORT);
  // `--window` is `npm start`'s where Electron's binary is absent: it says so once here.
  if (process.argv.includes('--window')) {
    launchPage = await writeLaunchPage(dataDir, host.url);
    // Its key is spent once a page has used it; in any case it is not kept for long.
    setTimeout(forgetLaunchPage, 120_000).unref();
  }
  const windowPlan =
    launchPage === undefined ? undefined : planWindow(launchUrl(launchPage), dataDir, env);
  if (windowPlan) {
    console.log(
      `Electron's binary is not installed here (\`npx install-electron\` fetches it): ${describePlan(windowPlan)}`,
    );
  }
  console.log(`Debusine Desktop is serving on ${host.url}`);
  const appWindow = windowPlan ? openWindow(windowPlan, console.log) : undefined;
  appWindow?.on('exit', (code) => {
    console.log(
      code === 0 || code === null
        ? 'The window was closed; Debusine Desktop serves on until Ctrl+C.'
        : `The window's browser stopped (exit code ${String(code)}); open the address above in a browser.`,
    );
  });
  const stop = (): void => {
    // The window is the app's: it closes with it.
    appWindow?.kill();
    forgetLaunchPage();
    void Promise.all([host.close(), service.close()]).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Starts the host on DEBUSINE_DESKTOP_PORT, or else on the port of the last run (another
 * one if that is taken now), and remembers the port it got.
 */
async function listen(
  options: WebHostOptions,
  dataDir: string,
  portVariable: string | undefined,
): Promise<Awaited<ReturnType<typeof startWebHost>>> {
  if (portVariable !== undefined && portVariable !== '') {
    return startWebHost({ ...options, port: parsePort(portVariable) });
  }
  const last = await rememberedPort(dataDir);
  const host = await startWebHost({ ...options, port: last ?? 0 }).catch((error: unknown) => {
    if (last === undefined || !portTaken(error)) throw error;
    return startWebHost({ ...options, port: 0 });
  });
  if (host.port !== last) {
    await rememberPort(dataDir, host.port).catch((error: unknown) => {
      console.warn(`Could not remember the port: ${String(error)}`);
    });
  }
  return host;
}

async function mkdirStaging(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'staging');
  // What a previous run staged and never released is of no use now.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

logUnhandledRejections();

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
