/**
 * Notification settings (persisted as `{dataDir}/notifications.json`), the recent
 * notifications list, and the gate every notification passes: snooze and failures-only
 * are applied here, then the host's notifier shows it and the renderer hears of it.
 *
 * The program run on completion is not kept here but in a file the bridge cannot write
 * (completion-command.ts). A `commandHook` that an earlier version kept in this file may
 * have been set through the bridge by anyone who reached it, so it is never used, and the
 * next save drops it.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { EmitEvent } from '../bridge/event-outbox';
import type { DesktopNotification, NotificationHandlers, Notifier } from '../notify/notifier';
import { readJsonFile, SerialQueue, writeJsonFile } from '../settings/json-file';
import type { NotificationPreferences, NotificationRecord } from '../../shared/contract';

const settingsSchema = z.object({
  mode: z.enum(['watched', 'mine', 'workspace']).default('watched'),
  workspaces: z.array(z.string()).default([]),
  failuresOnly: z.boolean().default(false),
  snoozedUntil: z.string().nullable().default(null),
});

export const RECENT_LIMIT = 100;

export class NotificationSettingsStore {
  readonly path: string;
  #settings: NotificationPreferences = settingsSchema.parse({});
  readonly #queue = new SerialQueue();

  constructor(dataDir: string) {
    this.path = join(dataDir, 'notifications.json');
  }

  async load(): Promise<NotificationPreferences> {
    const raw = await readJsonFile(this.path).catch(() => undefined);
    const parsed = settingsSchema.safeParse(raw ?? {});
    // A damaged file falls back to the defaults rather than silencing every notification.
    if (parsed.success) this.#settings = parsed.data;
    return this.get();
  }

  get(): NotificationPreferences {
    return structuredClone(this.#settings);
  }

  update(changes: Partial<NotificationPreferences>): Promise<NotificationPreferences> {
    return this.#queue.run(async () => {
      const next = settingsSchema.parse({ ...this.#settings, ...changes });
      await writeJsonFile(this.path, next, 0o600);
      this.#settings = next;
      return this.get();
    });
  }
}

/** More than this many desktop notifications within BURST_WINDOW_MS… */
export const BURST_LIMIT = 3;
export const BURST_WINDOW_MS = 5_000;
/** …and the next ones wait until none has come for this long, then show as one. */
export const BURST_QUIET_MS = 1_500;
/** Titles a burst's summary names before "and N more". */
const SUMMARY_TITLES = 3;

/** Wraps the host's notifier: applies the settings, records, and tells the renderer. */
export class NotificationGate implements Notifier {
  readonly #inner: Notifier;
  readonly #settings: () => NotificationPreferences;
  readonly #emit: EmitEvent;
  readonly #describe: (n: DesktopNotification) => { result: string; rootId: number | null };
  readonly #openList: () => void;
  readonly recent: NotificationRecord[] = [];
  /** When the desktop notifications of the last BURST_WINDOW_MS were shown. */
  #shownAt: number[] = [];
  /** A burst's notifications held back for its summary, oldest first. */
  #held: { notification: DesktopNotification; handlers: NotificationHandlers }[] = [];
  #quiet: NodeJS.Timeout | undefined;

  constructor(options: {
    inner: Notifier;
    settings: () => NotificationPreferences;
    emit: EmitEvent;
    /** What the notification's work request ended with, and its workflow root. */
    describe: (n: DesktopNotification) => { result: string; rootId: number | null };
    /** A burst's summary was clicked: show the work request list. */
    openList?: () => void;
  }) {
    this.#inner = options.inner;
    this.#settings = options.settings;
    this.#emit = options.emit;
    this.#describe = options.describe;
    this.#openList = options.openList ?? (() => undefined);
  }

  get supportsActions(): boolean {
    return this.#inner.supportsActions;
  }

  /**
   * Shows a notification unless snoozed or filtered out, and records it for the app's
   * list. A burst (the completions replayed after a night offline, a big workflow's
   * end) does not flood the desktop: past BURST_LIMIT within BURST_WINDOW_MS, the rest
   * are shown as one summary once they stop coming; each is still recorded.
   */
  show(notification: DesktopNotification, handlers: NotificationHandlers): void {
    if (this.#filtered(notification)) return;
    const now = Date.now();
    this.#shownAt = this.#shownAt.filter((at) => now - at < BURST_WINDOW_MS);
    if (this.#held.length > 0 || this.#shownAt.length >= BURST_LIMIT) {
      this.#held.push({ notification, handlers });
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
      ...this.#describe(notification),
      shownAt: new Date(now).toISOString(),
    };
    this.recent.unshift(record);
    this.recent.splice(RECENT_LIMIT);
    this.#emit('notification.shown', record);
  }

  #filtered(notification: DesktopNotification): boolean {
    const settings = this.#settings();
    const snoozed =
      settings.snoozedUntil !== null && Date.parse(settings.snoozedUntil) > Date.now();
    // The router marks failures (failure, error, temporary failure) critical.
    return snoozed || (settings.failuresOnly && notification.urgency !== 'critical');
  }

  #flush(): void {
    clearTimeout(this.#quiet);
    this.#quiet = undefined;
    const held = this.#held;
    this.#held = [];
    const [first] = held;
    if (!first) return;
    this.#shownAt.push(Date.now());
    if (held.length === 1) {
      this.#inner.show(first.notification, first.handlers);
      return;
    }
    this.#inner.show(summaryOf(held.map((h) => h.notification)), {
      onClick: this.#openList,
      onAction: () => undefined,
    });
  }
}

/** One notification for a burst: how many, how many failed, the first few titles. */
export function summaryOf(notifications: readonly DesktopNotification[]): DesktopNotification {
  const failed = notifications.filter((n) => n.urgency === 'critical').length;
  const count = notifications.length;
  const titles = notifications.slice(0, SUMMARY_TITLES).map((n) => n.title);
  if (count > SUMMARY_TITLES) titles.push(`and ${String(count - SUMMARY_TITLES)} more`);
  const newest = notifications[count - 1];
  return {
    key: `burst-${newest?.key ?? String(Date.now())}`,
    title: `${String(count)} more work requests finished${failed ? `, ${String(failed)} failed` : ''}`,
    body: titles.join('\n'),
    workRequestId: newest?.workRequestId ?? 0,
    actions: [],
    urgency: failed ? 'critical' : 'normal',
  };
}
