/**
 * Reading the work requests of queued completions ahead of their turn. Completions that
 * queue up (the server's replay of what completed during an outage: hundreds after a
 * night away) are read in list requests of READ_AHEAD_BATCH ids, so the queue does not
 * wait for one GET per completion; while fewer than READ_AHEAD_FROM wait, the router
 * reads each one by itself. Every work request is still read after its completion.
 */
import type { WorkRequestResponse } from '../../shared/models';
import type { DebusineClient } from '../api/client';

export type WorkRequestSource = Pick<DebusineClient, 'workRequestGet' | 'workRequestIter'>;

/** Work requests read in one list request when a backlog comes in. */
export const READ_AHEAD_BATCH = 50;
/**
 * How many completions must be waiting to make a backlog. Fewer (the ordinary trickle of a
 * busy server) are read one GET each, as the list's pages (10 work requests each) cost the
 * server more than a GET per work request when there are only a few to read.
 */
export const READ_AHEAD_FROM = 10;

export class ReadAhead {
  readonly #client: WorkRequestSource;
  readonly #readsByIds: (() => Promise<boolean>) | undefined;
  /** Completions received and not handled yet, in the order received. */
  readonly #queued = new Set<number>();
  /** Work requests being read ahead for queued completions; these never reject. */
  readonly #ahead = new Map<number, Promise<WorkRequestResponse | undefined>>();
  #reading: Promise<void> = Promise.resolve();
  #batchesInFlight = 0;

  /** `readsByIds`: whether the server's list filters by ids; without it, nothing is read ahead. */
  constructor(client: WorkRequestSource, readsByIds?: () => Promise<boolean>) {
    this.#client = client;
    this.#readsByIds = readsByIds;
  }

  /** A completion came in and waits for its turn. */
  queue(id: number): void {
    this.#queued.add(id);
  }

  /**
   * Forgets the queue (the watcher it came from is gone, or dropped what waited), and the
   * work requests read ahead for it, which no take() will ask for.
   */
  clear(): void {
    this.#queued.clear();
    this.#ahead.clear();
  }

  /**
   * The work request of a queued completion at its turn, when a batch read it; undefined
   * when the caller must read it alone (no backlog, or the batch did not have it).
   */
  async take(id: number): Promise<WorkRequestResponse | undefined> {
    try {
      const backlog = this.#queued.size >= READ_AHEAD_FROM;
      const readsByIds = this.#readsByIds;
      if (backlog && readsByIds && (await readsByIds().catch(() => false))) {
        if (!this.#ahead.has(id)) this.#readBatch(id);
        // Keep the next batch coming while this one is handled.
        if (this.#batchesInFlight < 2) this.#readBatch();
      }
      const ahead = this.#ahead.get(id);
      this.#ahead.delete(id);
      return ahead ? await ahead : undefined;
    } finally {
      this.#queued.delete(id);
    }
  }

  /** Reads `first` and the next queued work requests not being read yet. */
  #readBatch(first?: number): void {
    const batch = first === undefined ? [] : [first];
    for (const id of this.#queued) {
      if (batch.length >= READ_AHEAD_BATCH) break;
      if (id !== first && !this.#ahead.has(id)) batch.push(id);
    }
    if (batch.length === 0) return;
    const waiting = new Map<number, (wr: WorkRequestResponse | undefined) => void>();
    for (const id of batch) {
      this.#ahead.set(id, new Promise((resolve) => waiting.set(id, resolve)));
    }
    this.#batchesInFlight++;
    this.#reading = this.#reading.then(async () => {
      try {
        for await (const workRequest of this.#client.workRequestIter({ ids: batch })) {
          waiting.get(workRequest.id)?.(workRequest);
          waiting.delete(workRequest.id);
        }
      } catch {
        // Those not read yet are read one by one, which reports their problem if any.
      }
      // Not in the answer (say, another user's private workspace): the caller reads it alone.
      for (const resolve of waiting.values()) resolve(undefined);
      this.#batchesInFlight--;
    });
  }
}
