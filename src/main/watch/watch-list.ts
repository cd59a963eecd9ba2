/**
 * The watch list of one server profile: work requests and workflows the user follows.
 * Persisted as JSON in a file the caller chooses (e.g. `{dataDir}/watch-{profileId}.json`).
 * What notifies besides the list (the mode) is a setting of the app, not of the list: the
 * `mode` and `workspaces` keys that files of earlier versions carry are read and dropped.
 */
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { BoundedSet } from '../bounded';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

const itemSchema = z.object({
  id: z.number().int().positive(),
  /** started: created from this app (watched automatically); user: added by hand. */
  source: z.enum(['started', 'user']),
  addedAt: z.string(),
  /** The last status/result seen, to tell "finished while away" from "was already done". */
  status: z.string().nullable().default(null),
  result: z.string().nullable().default(null),
  label: z.string().nullable().default(null),
  /** Known once fetched: enough to notify at once, without waiting for another fetch. */
  taskType: z.string().nullable().default(null),
  workspace: z.string().nullable().default(null),
  /** workflow_root, or null for a root or a standalone work request. */
  rootId: z.number().int().nullable().default(null),
});
export type WatchItem = z.infer<typeof itemSchema>;

/**
 * Steps of watched workflows whose "waits for you" notification was shown, so that it is
 * shown once ever, across reconnections and restarts. The oldest are forgotten past this
 * many: that costs one more notification, and only for a step still waiting after a
 * thousand newer ones were notified.
 */
export const NOTIFIED_WAITS_LIMIT = 1000;

const fileSchema = z.object({
  version: z.literal(1),
  items: z.array(itemSchema).default([]),
  /**
   * Oldest first. A damaged list costs at most one more notification per waiting step,
   * never the watch list itself.
   */
  notifiedWaits: z.array(z.number().int().positive()).catch([]),
});
export type WatchListData = z.infer<typeof fileSchema>;

export interface WatchListEvents {
  changed: [WatchListData];
}

export class WatchList extends EventEmitter<WatchListEvents> {
  readonly path: string;
  #data: WatchListData = { version: 1, items: [], notifiedWaits: [] };
  readonly #notifiedWaits = new BoundedSet<number>(NOTIFIED_WAITS_LIMIT);
  readonly #queue = new SerialQueue();

  constructor(path: string) {
    super();
    this.path = path;
  }

  async load(): Promise<WatchListData> {
    const raw = await readJsonFile(this.path).catch(() => undefined);
    const parsed = fileSchema.safeParse(raw ?? { version: 1 });
    if (parsed.success) {
      for (const id of parsed.data.notifiedWaits) this.#notifiedWaits.add(id);
      this.#data = { ...parsed.data, notifiedWaits: [...this.#notifiedWaits.values()] };
    }
    return this.data;
  }

  get data(): WatchListData {
    return structuredClone(this.#data);
  }

  has(id: number): boolean {
    return this.#data.items.some((item) => item.id === id);
  }

  get(id: number): WatchItem | undefined {
    const item = this.#data.items.find((i) => i.id === id);
    return item && { ...item };
  }

  add(id: number, source: WatchItem['source'], label: string | null = null): Promise<WatchItem> {
    return this.#change((data) => {
      const existing = data.items.find((item) => item.id === id);
      if (existing) return { ...existing };
      const item: WatchItem = {
        id,
        source,
        addedAt: new Date().toISOString(),
        status: null,
        result: null,
        label,
        taskType: null,
        workspace: null,
        rootId: null,
      };
      data.items.push(item);
      return { ...item };
    });
  }

  remove(id: number): Promise<void> {
    return this.#change((data) => {
      data.items = data.items.filter((item) => item.id !== id);
    });
  }

  /** Records the last status seen (without an event when nothing changed). */
  setStatus(id: number, status: string, result: string): Promise<void> {
    const item = this.#data.items.find((i) => i.id === id);
    if (!item || (item.status === status && item.result === result)) return Promise.resolve();
    return this.#change((data) => {
      const target = data.items.find((i) => i.id === id);
      if (target) {
        target.status = status;
        target.result = result;
      }
    });
  }

  /** Records what the work request is (from a fetch or its creation). */
  describe(
    id: number,
    about: { label: string; taskType: string; workspace: string; rootId: number | null },
  ): Promise<void> {
    const item = this.#data.items.find((i) => i.id === id);
    if (
      !item ||
      (item.label === about.label &&
        item.taskType === about.taskType &&
        item.workspace === about.workspace &&
        item.rootId === about.rootId)
    ) {
      return Promise.resolve();
    }
    return this.#change((data) => {
      const target = data.items.find((i) => i.id === id);
      if (target) Object.assign(target, about);
    });
  }

  /** Whether the "waits for you" notification of this step was shown already. */
  waitNotified(stepId: number): boolean {
    return this.#notifiedWaits.has(stepId);
  }

  /**
   * Remembers at once that this step's notification was shown, and saves it. The watch list
   * itself did not change: no `changed` event.
   */
  markWaitNotified(stepId: number): Promise<void> {
    if (this.#notifiedWaits.has(stepId)) return Promise.resolve();
    this.#notifiedWaits.add(stepId);
    return this.#change(
      (data) => {
        data.notifiedWaits = [...this.#notifiedWaits.values()];
      },
      { silent: true },
    );
  }

  #change<T>(change: (data: WatchListData) => T, options = { silent: false }): Promise<T> {
    return this.#queue.run(async () => {
      const result = change(this.#data);
      await writeJsonFile(this.path, this.#data);
      if (!options.silent) this.emit('changed', this.data);
      return result;
    });
  }
}

export interface WorkRequestRef {
  id: number;
  scope?: string;
  workspace?: string;
}

/**
 * What the user typed or pasted: `123`, `#123`, or a web URL
 * `{site}/{scope}/{workspace}/work-request/{id}/`. With `siteUrl`, a URL of another
 * server is refused (it would watch an unrelated work request with the same number).
 */
export function parseWorkRequestRef(input: string, siteUrl?: string): WorkRequestRef {
  const text = input.trim();
  const bare = /^#?(\d{1,12})$/.exec(text);
  if (bare?.[1]) return { id: Number(bare[1]) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DebusineError(
      'validation',
      'Enter a work request number or paste its web address (…/work-request/123/)',
      { field: 'ref' },
    );
  }
  const match = /^(.*?)\/([^/]+)\/([^/]+)\/work-request\/(\d+)\/?$/.exec(url.pathname);
  if (!match?.[2] || !match[3] || !match[4]) {
    throw new DebusineError(
      'validation',
      'That address is not a work request page (expected /{scope}/{workspace}/work-request/{id}/)',
      { field: 'ref' },
    );
  }
  if (siteUrl !== undefined) {
    const site = new URL(siteUrl);
    const prefix = site.pathname.replace(/\/+$/, '');
    if (url.origin !== site.origin || match[1] !== prefix) {
      throw new DebusineError(
        'validation',
        `That work request is on another server (${url.origin}), not on ${site.origin}`,
        { field: 'ref' },
      );
    }
  }
  return {
    id: Number(match[4]),
    scope: decodeURIComponent(match[2]),
    workspace: decodeURIComponent(match[3]),
  };
}
