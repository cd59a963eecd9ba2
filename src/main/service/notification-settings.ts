/**
 * Notification settings (persisted as `{dataDir}/notifications.json`): what notifies,
 * failures only, and snooze. The gate in src/main/notify/gate.ts applies them.
 *
 * The program run on completion is not kept here but in a file the bridge cannot write
 * (completion-command.ts). A `commandHook` that an earlier version kept in this file may
 * have been set through the bridge by anyone who reached it, so it is never used, and the
 * next save drops it.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';
import type { NotificationPreferences } from '../../shared/contract';

const settingsSchema = z.object({
  mode: z.enum(['watched', 'mine', 'workspace']).default('watched'),
  workspaces: z.array(z.string()).default([]),
  failuresOnly: z.boolean().default(false),
  snoozedUntil: z.string().nullable().default(null),
});

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
