/**
 * Notification settings (persisted as `{dataDir}/notifications.json`), the recent
 * notifications list, and the gate every notification passes: snooze and failures-only
 * are applied here, then the host's notifier shows it and the renderer hears of it.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { EmitEvent } from '../bridge/event-outbox';
import type { DesktopNotification, NotificationHandlers, Notifier } from '../notify/notifier';
import { readJsonFile, SerialQueue, writeJsonFile } from '../settings/json-file';
import type { NotificationRecord, NotificationSettings } from '../../shared/contract';

const settingsSchema = z.object({
  mode: z.enum(['watched', 'mine', 'workspace']).default('watched'),
  workspaces: z.array(z.string()).default([]),
  failuresOnly: z.boolean().default(false),
  snoozedUntil: z.string().nullable().default(null),
  commandHook: z
    .object({ enabled: z.boolean(), command: z.array(z.string()).min(1) })
    .nullable()
    .default(null),
});

export const RECENT_LIMIT = 100;

export class NotificationSettingsStore {
  readonly path: string;
  #settings: NotificationSettings = settingsSchema.parse({});
  readonly #queue = new SerialQueue();

  constructor(dataDir: string) {
    this.path = join(dataDir, 'notifications.json');
  }

  async load(): Promise<NotificationSettings> {
    const raw = await readJsonFile(this.path).catch(() => undefined);
    const parsed = settingsSchema.safeParse(raw ?? {});
    // A damaged file falls back to the defaults rather than silencing every notification.
    if (parsed.success) this.#settings = parsed.data;
    return this.get();
  }

  get(): NotificationSettings {
    return structuredClone(this.#settings);
  }

  update(changes: Partial<NotificationSettings>): Promise<NotificationSettings> {
    return this.#queue.run(async () => {
      const next = settingsSchema.parse({ ...this.#settings, ...changes });
      await writeJsonFile(this.path, next, 0o600);
      this.#settings = next;
      return this.get();
    });
  }
}

/** Wraps the host's notifier: applies the settings, records, and tells the renderer. */
export class NotificationGate implements Notifier {
  readonly #inner: Notifier;
  readonly #settings: () => NotificationSettings;
  readonly #emit: EmitEvent;
  readonly #describe: (n: DesktopNotification) => { result: string; rootId: number | null };
  readonly recent: NotificationRecord[] = [];

  constructor(options: {
    inner: Notifier;
    settings: () => NotificationSettings;
    emit: EmitEvent;
    /** What the notification's work request ended with, and its workflow root. */
    describe: (n: DesktopNotification) => { result: string; rootId: number | null };
  }) {
    this.#inner = options.inner;
    this.#settings = options.settings;
    this.#emit = options.emit;
    this.#describe = options.describe;
  }

  get supportsActions(): boolean {
    return this.#inner.supportsActions;
  }

  show(notification: DesktopNotification, handlers: NotificationHandlers): void {
    const settings = this.#settings();
    const snoozed =
      settings.snoozedUntil !== null && Date.parse(settings.snoozedUntil) > Date.now();
    if (snoozed) return;
    // The router marks failures (failure, error, temporary failure) critical.
    if (settings.failuresOnly && notification.urgency !== 'critical') return;
    this.#inner.show(notification, handlers);
    const record: NotificationRecord = {
      workRequestId: notification.workRequestId,
      title: notification.title,
      body: notification.body,
      ...this.#describe(notification),
      shownAt: new Date().toISOString(),
    };
    this.recent.unshift(record);
    this.recent.splice(RECENT_LIMIT);
    this.#emit('notification.shown', record);
  }
}
