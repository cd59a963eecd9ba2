import type { App } from 'electron';

/**
 * How long quitting waits for the service to close. Closing waits for every call in flight
 * (a read may take its 30 s and its retries), and while it waits the window is gone and a
 * new launch hands its arguments to this process, which does nothing with them. So the wait
 * is bounded: what has not ended by then ends with the process. Uploads are paused at their
 * first await and files are written whole before that, well within the bound.
 */
export const QUIT_WAIT_MS = 3_000;

/**
 * Runs `close` and resolves when it ends or `boundMs` have passed, whichever is first; it
 * never rejects, since quitting goes on either way. What failed or did not end is logged.
 */
export function closeWithin(close: () => Promise<void>, boundMs = QUIT_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(
        `Closing down took more than ${String(boundMs / 1000)} s: quitting without waiting for the rest.`,
      );
      resolve();
    }, boundMs);
  });
  const closing = Promise.resolve()
    .then(close)
    .catch((error: unknown) => {
      console.error('Closing down failed:', error);
    });
  return Promise.race([closing, bound]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * A launch while the app quits: the new process hands its arguments to this one (which
 * holds the single-instance lock until it ends) and exits, and this one, its window gone,
 * does nothing with them. So the app is started again once this process has ended, with
 * those arguments. Electron starts one instance per relaunch() call: only the first launch
 * meanwhile is started again.
 */
export class RelaunchWhileQuitting {
  readonly #app: Pick<App, 'on' | 'relaunch'>;
  #quitting = false;
  #relaunching = false;

  constructor(app: Pick<App, 'on' | 'relaunch'>) {
    this.#app = app;
    app.on('before-quit', () => {
      this.#quitting = true;
    });
  }

  /**
   * Takes a second instance's `argv` (its program first): true when the app is quitting
   * and it will be launched again, false when the running app is to take it.
   */
  take(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
    if (!this.#quitting) return false;
    if (!this.#relaunching) {
      this.#relaunching = true;
      // An AppImage's program is inside its mount, gone once it has ended: the AppImage
      // file itself is what starts it again.
      this.#app.relaunch({ args: argv.slice(1), execPath: env.APPIMAGE ?? process.execPath });
    }
    return true;
  }
}
