/**
 * The gate every notification about watched work passes (completions, and steps that wait
 * for the user): snooze and failures-only are applied here, a burst is held back and
 * summed up, then the host's notifier shows what is left, and each notification that
 * passed is recorded for the app's list of recent ones.
 */
import type { NotificationPreferences, NotificationRecord } from '../../shared/contract';
import {
  visibleNotification,
  type CompletionNotification,
  type DesktopNotification,
  type NotificationHandlers,
  type Notifier,
} from './notifier';

/** How many notifications the app's list keeps, newest first. */
export const RECENT_LIMIT = 100;
/** More than this many desktop notifications within BURST_WINDOW_MS… */
export const BURST_LIMIT = 3;
export const BURST_WINDOW_MS = 5_000;
/** …and the next ones wait until none has come for this long, then show as one. */
export const BURST_QUIET_MS = 1_500;
/** Titles a burst's summary names before "and N more". */
const SUMMARY_TITLES = 3;

export interface NotificationGateOptions {
  /** The host's notifier (Electron's, or a recording one where there is no desktop). */
  inner: Notifier;
  /** Read at each notification, so that a change of settings applies to the next one. */
  settings: () => NotificationPreferences;
  /** A notification passed the gate (shown or held for a summary): tell the renderer. */
  recorded: (record: NotificationRecord) => void;
  /** A burst's summary was clicked: show the work request list of the server it came from. */
  openList?: (source: string | null) => void;
}

/** Wraps the host's notifier: applies the settings, holds bursts back, and records. */
export class NotificationGate implements Notifier<CompletionNotification> {
  readonly #inner: Notifier;
  readonly #settings: () => NotificationPreferences;
  readonly #recorded: (record: NotificationRecord) => void;
  readonly #openList: (source: string | null) => void;
  readonly recent: NotificationRecord[] = [];
  /** When the desktop notifications of the last BURST_WINDOW_MS were shown. */
  #shownAt: number[] = [];
  /** The notifications held back for a summary, while a burst lasts. */
  #held: Burst | undefined;
  #quiet: NodeJS.Timeout | undefined;

  constructor(options: NotificationGateOptions) {
    this.#inner = options.inner;
    this.#settings = options.settings;
    this.#recorded = options.recorded;
    this.#openList = options.openList ?? (() => undefined);
  }

  get supportsActions(): boolean {
    return this.#inner.supportsActions;
  }

  /** The gate as the notifier of one server's watcher: what it shows is marked as that server's. */
  forSource(source: string): Notifier<CompletionNotification> {
    return {
      supportsActions: this.supportsActions,
      show: (notification, handlers) => {
        this.show(notification, handlers, source);
      },
    };
  }

  /**
   * Shows a notification unless snoozed or filtered out, and records it for the app's
   * list. A burst (the completions replayed after a night offline, a big workflow's
   * end) does not flood the desktop: past BURST_LIMIT within BURST_WINDOW_MS, the rest
   * are shown as one summary once they stop coming; each is still recorded. `source`: the
   * server profile that showed it; a burst sums up one server's notifications only, so
   * that its summary opens the list where they are.
   */
  show(
    shown: CompletionNotification,
    handlers: NotificationHandlers,
    source: string | null = null,
  ): void {
    const notification = visibleNotification(shown);
    if (this.#filtered(notification)) return;
    if (this.#held && this.#held.source !== source) this.#flush();
    const now = Date.now();
    this.#shownAt = this.#shownAt.filter((at) => now - at < BURST_WINDOW_MS);
    if (this.#held || this.#shownAt.length >= BURST_LIMIT) {
      if (this.#held) this.#held.add(notification);
      else this.#held = new Burst(notification, handlers, source);
      clearTimeout(this.#quiet);
      this.#quiet = setTimeout(() => {
        this.#flush();
      }, BURST_QUIET_MS);
      this.#quiet.unref();
    } else {
      this.#shownAt.push(now);
      this.#inner.show(notification, handlers);
    }
    const record: NotificationRecord = {
      workRequestId: notification.workRequestId,
      title: notification.title,
      body: notification.body,
      result: notification.result,
      rootId: notification.rootId,
      reason: notification.reason,
      ...(notification.liveLine === undefined ? {} : { liveLine: notification.liveLine }),
      shownAt: new Date(now).toISOString(),
      serverId: source,
    };
    this.recent.unshift(record);
    this.recent.splice(RECENT_LIMIT);
    this.#recorded(record);
  }

  /**
   * Snooze mutes everything. Failures-only hides the completions that are not failures
   * (failure, error and temporary failure are the critical ones), never a step that waits
   * for the user: like a failure, it asks for something to be done. What notifies (the
   * mode) is the router's business: a waiting step of a watched workflow notifies in every
   * mode, as a watched completion does.
   */
  #filtered(notification: CompletionNotification): boolean {
    const settings = this.#settings();
    const snoozed =
      settings.snoozedUntil !== null && Date.parse(settings.snoozedUntil) > Date.now();
    if (snoozed) return true;
    return (
      settings.failuresOnly &&
      notification.kind === 'completion' &&
      notification.urgency !== 'critical'
    );
  }

  #flush(): void {
    clearTimeout(this.#quiet);
    this.#quiet = undefined;
    const held = this.#held;
    this.#held = undefined;
    if (!held) return;
    this.#shownAt.push(Date.now());
    if (held.count === 1) {
      this.#inner.show(held.first.notification, held.first.handlers);
      return;
    }
    this.#inner.show(held.summary(), {
      onClick: () => {
        this.#openList(held.source);
      },
      onAction: () => undefined,
    });
  }
}

/**
 * A burst held back: the first notification (shown as itself if no other follows), and
 * what the summary says of the rest. It keeps no list, however long the burst.
 */
class Burst {
  readonly first: { notification: DesktopNotification; handlers: NotificationHandlers };
  count = 1;
  #failed = 0;
  #waiting = 0;
  readonly #titles: string[] = [];
  #newest: DesktopNotification;

  constructor(
    notification: CompletionNotification,
    handlers: NotificationHandlers,
    readonly source: string | null,
  ) {
    this.first = { notification, handlers };
    this.#newest = notification;
    this.#count(notification);
  }

  add(notification: CompletionNotification): void {
    this.count++;
    this.#newest = notification;
    this.#count(notification);
  }

  #count(notification: CompletionNotification): void {
    if (notification.kind === 'needs-input') this.#waiting++;
    else if (notification.urgency === 'critical') this.#failed++;
    if (this.#titles.length < SUMMARY_TITLES) this.#titles.push(notification.title);
  }

  /**
   * One notification for the burst: how many finished and how many failed (and how many
   * steps wait for the user, if any), the first few titles.
   */
  summary(): DesktopNotification {
    const more = this.count - this.#titles.length;
    const failed = this.#failed;
    const waiting = this.#waiting;
    const finished = this.count - waiting;
    const parts = [
      ...(finished > 0 ? [`${String(finished)} more work requests finished`] : []),
      ...(failed > 0 ? [`${String(failed)} failed`] : []),
      ...(waiting > 0
        ? [`${String(waiting)} ${waiting === 1 ? 'step waits' : 'steps wait'} for you`]
        : []),
    ];
    return {
      key: `burst-${this.#newest.key}`,
      title: parts.join(', '),
      body: [...this.#titles, ...(more > 0 ? [`and ${String(more)} more`] : [])].join('\n'),
      workRequestId: this.#newest.workRequestId,
      actions: [],
      urgency: failed > 0 || waiting > 0 ? 'critical' : 'normal',
    };
  }
}
