/**
 * Desktop notifications, behind an interface: the Electron implementation lives in
 * src/main/app/electron-notifier.ts, the web host's (the page shows them) in
 * page-notifier.ts, and the tests use RecordingNotifier.
 */
import type { FailureReason } from '../../shared/results/failure';
import { bodyText, titleText } from '../../shared/shown-text';

/**
 * Retry it; open its page in the browser; open the log at the line that says why it failed;
 * sign the upload a step waits for; abort a step whose build is failing.
 */
export type NotificationActionId = 'retry' | 'open-in-browser' | 'open-log' | 'sign' | 'abort';

export interface NotificationAction {
  id: NotificationActionId;
  label: string;
}

export interface DesktopNotification {
  /** Stable per event (`wr-12@<completed_at>`): showing the same key again replaces it. */
  key: string;
  title: string;
  body: string;
  workRequestId: number;
  /** Shown only where the platform supports buttons (Notifier.supportsActions). */
  actions: NotificationAction[];
  /** Failures stay on screen longer where the platform supports urgency. */
  urgency: 'normal' | 'critical';
}

/**
 * `notification` with its title and body as the desktop may show them: every character a
 * server wrote there that shows nothing or reorders the text around it (a right-to-left
 * override in a workflow's name, a zero-width space in a reason) made visible as its mark
 * (shared/visible-text.ts), the title on one line, the body's line breaks kept (its lines
 * are its layout), and each bounded (shared/shown-text.ts): a desktop shows a 60 KiB title
 * whole. Showing it again changes nothing.
 */
export function visibleNotification<N extends DesktopNotification>(notification: N): N {
  return {
    ...notification,
    title: titleText(notification.title),
    body: bodyText(notification.body),
  };
}

/**
 * A notification about watched work (a completion, or a step that waits for a person),
 * with what the app's list of recent notifications keeps beside what the desktop shows;
 * the router knows both when it builds one.
 */
export interface CompletionNotification extends DesktopNotification {
  /** completion: a work request finished; needs-input: a step waits for the user. */
  kind: 'completion' | 'needs-input';
  /**
   * What the work request ended with (`success`, `failure`, …, as the server says);
   * `needs input` for a waiting step.
   */
  result: string;
  /** The root of the workflow it belongs to; null for a root or a lone work request. */
  rootId: number | null;
  /** Why it failed and the log line that shows it, when that is known; null otherwise. */
  reason: FailureReason | null;
  /**
   * An early warning's: the line (0-based) of the step's live log where the running build
   * broke, which "Open log here" opens; absent for every other notification.
   */
  liveLine?: number;
}

export interface NotificationHandlers {
  /** The notification body was clicked: open the work request in the app. */
  onClick: () => void;
  onAction: (action: NotificationActionId) => void;
}

/** Shows notifications; a notifier of any DesktopNotification takes the narrower kinds too. */
export interface Notifier<N extends DesktopNotification = DesktopNotification> {
  readonly supportsActions: boolean;
  show(notification: N, handlers: NotificationHandlers): void;
}

export interface RecordedNotification {
  notification: DesktopNotification;
  handlers: NotificationHandlers;
  /** Date.now() when show() was called. */
  shownAt: number;
}

/** Keeps what would have been shown; tests click and act on the records. */
export class RecordingNotifier implements Notifier {
  readonly supportsActions: boolean;
  readonly shown: RecordedNotification[] = [];
  readonly #waiters: {
    match: (n: DesktopNotification) => boolean;
    resolve: (r: RecordedNotification) => void;
  }[] = [];

  constructor(supportsActions = true) {
    this.supportsActions = supportsActions;
  }

  show(notification: DesktopNotification, handlers: NotificationHandlers): void {
    const record = { notification, handlers, shownAt: Date.now() };
    this.shown.push(record);
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(notification)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(record);
      }
    }
  }

  /** Resolves with the first notification (past or future) that matches. */
  waitFor(
    match: (n: DesktopNotification) => boolean,
    timeoutMs = 60_000,
  ): Promise<RecordedNotification> {
    const found = this.shown.find((r) => match(r.notification));
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`No matching notification within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      this.#waiters.push({
        match,
        resolve: (record) => {
          clearTimeout(timer);
          resolve(record);
        },
      });
    });
  }
}
