/**
 * What the window does when its page's renderer process ends or stops answering. Without
 * this a crashed page stays blank until View › Reload, and a crash before the window was
 * first shown leaves a hidden window: a process nobody can see that keeps the single-instance
 * lock, so every later launch hands its arguments to it and exits.
 *
 * A crash is answered with a reload, and a line saying so; a second one soon after asks
 * whether to reload again or quit, as a page that keeps crashing would otherwise be
 * reloaded for ever. A page that stops answering for a while asks whether to wait or
 * reload; the question goes away if the page answers again meanwhile.
 */
import { app, dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';

type GoneReason = Electron.RenderProcessGoneDetails['reason'];

/** A second crash within this time of the one before asks rather than reloads. */
export const CRASH_REPEAT_MS = 60_000;
/**
 * How long a page Electron called unresponsive is given before the user is asked.
 * Chromium waits a few seconds itself before it calls a page unresponsive; this adds
 * time for a page that is only busy.
 */
export const UNRESPONSIVE_ASK_MS = 5_000;

/** What each reason Electron gives means, in the user's words. */
const REASONS: Record<GoneReason, string> = {
  'clean-exit': 'ended',
  'abnormal-exit': 'ended with an error',
  killed: 'was killed',
  crashed: 'crashed',
  oom: 'ran out of memory',
  'launch-failed': 'could not be started',
  'integrity-failure': 'failed a code integrity check',
  'memory-eviction': 'was ended to free memory',
};

export interface RecoveryOptions {
  /** The clock crashes are timed with. */
  now?: () => number;
}

/** Watches one window's page: crashes, and a page that stops answering. */
export function recoverWindow(win: BrowserWindow, options: RecoveryOptions = {}): void {
  const now = options.now ?? Date.now;
  const contents = win.webContents;
  let lastCrash: number | undefined;
  /** Set while the app itself ends a hung renderer, whose end is no crash to answer. */
  let restarting = false;
  let unresponsive: { timer?: NodeJS.Timeout; question?: AbortController } | undefined;

  const alive = (): boolean => !win.isDestroyed();
  const ask = (message: MessageBoxOptions): Promise<number> =>
    dialog.showMessageBox(win, message).then((answer) => answer.response);
  // A window that was never shown (a crash before its first paint) is shown: the user sees
  // what happened and can quit; a hidden window would hold the app's lock unseen.
  const bringUp = (): void => {
    if (!win.isVisible()) win.show();
  };
  const reload = (): void => {
    if (alive()) contents.reload();
  };
  const stopWaiting = (): void => {
    clearTimeout(unresponsive?.timer);
    unresponsive?.question?.abort();
    unresponsive = undefined;
  };

  contents.on('render-process-gone', (_event, details) => {
    stopWaiting();
    if (restarting) {
      restarting = false;
      return;
    }
    const what = `The window's page ${REASONS[details.reason]} (exit code ${String(details.exitCode)})`;
    // The page ended as asked: the window is closing, or the app quitting.
    if (details.reason === 'clean-exit' || !alive()) {
      console.log(`${what}.`);
      return;
    }
    console.warn(`${what}.`);
    bringUp();
    const at = now();
    const repeated = lastCrash !== undefined && at - lastCrash < CRASH_REPEAT_MS;
    lastCrash = at;
    if (!repeated) {
      reload();
      void ask({
        type: 'warning',
        message: 'The window was reloaded',
        detail: `${what}, and was loaded again. Anything not saved on the server was lost.`,
        buttons: ['OK'],
      });
      return;
    }
    void ask({
      type: 'error',
      message: "The window's page crashed again",
      detail: `${what}, soon after it was reloaded. Reload it once more, or quit Debusine Desktop?`,
      buttons: ['Reload', 'Quit'],
      defaultId: 0,
      cancelId: 0,
    }).then((choice) => {
      if (choice === 1) app.quit();
      else reload();
    });
  });

  const askWhetherToWait = (): void => {
    if (!alive() || unresponsive === undefined) return;
    const question = new AbortController();
    const state = unresponsive;
    state.question = question;
    bringUp();
    void ask({
      type: 'warning',
      message: 'The window is not responding',
      detail: 'Its page has not answered for a while. Wait for it, or reload it?',
      buttons: ['Wait', 'Reload'],
      defaultId: 0,
      cancelId: 0,
      signal: question.signal,
    }).then((choice) => {
      // It answered meanwhile: the question was taken back, and nothing is to be done.
      if (question.signal.aborted || unresponsive !== state) return;
      if (choice === 1) {
        stopWaiting();
        // "Calling reload() immediately after calling this method will force the reload to
        // occur in a new process. This should be used when this process is unstable or
        // unusable, for instance in order to recover from the unresponsive event."
        restarting = true;
        contents.forcefullyCrashRenderer();
        reload();
        return;
      }
      // Waiting: asked again if it still does not answer after as long again.
      state.question = undefined;
      state.timer = setTimeout(askWhetherToWait, UNRESPONSIVE_ASK_MS);
    });
  };

  contents.on('unresponsive', () => {
    if (unresponsive !== undefined) return;
    console.warn("The window's page is not responding.");
    unresponsive = { timer: setTimeout(askWhetherToWait, UNRESPONSIVE_ASK_MS) };
  });
  contents.on('responsive', () => {
    if (unresponsive !== undefined) console.log("The window's page is responding again.");
    stopWaiting();
  });
  win.on('closed', stopWaiting);
}

/**
 * The GPU process ending is logged with its reason. Chromium starts it again, and when it
 * keeps failing falls back to drawing without it: the app has nothing to add.
 */
export function logChildProcessesGone(): void {
  app.on('child-process-gone', (_event, details) => {
    const name = details.name ?? details.serviceName ?? details.type;
    const line = `The ${name} process ${REASONS[details.reason]} (exit code ${String(details.exitCode)}).`;
    if (details.type === 'GPU') {
      console.warn(`${line} Electron starts it again, or draws without it if it keeps failing.`);
    } else {
      console.warn(line);
    }
  });
}
