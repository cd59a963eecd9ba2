/**
 * When the router reads workflows again to see whether they ended. The completion
 * websocket names only work requests that complete (Debusine sends it from
 * `mark_completed`); an aborted one never comes through it. A workflow whose step failed
 * ends exactly that way: the steps that needed the failed one are aborted, then their
 * workflows, then the root, all without a message. So:
 *
 * - after a step of a followed workflow completes, its root is read a few times: at once
 *   (the server aborts the rest in the same transaction as the step's completion, before
 *   it sends the message), and twice more later, in case a scheduler pass ends it instead;
 * - every watched work request that has not ended is read now and then (a workflow the
 *   user aborted in the web UI ends with no completion at all), less often while nothing
 *   changes, and again sooner after anything happens.
 *
 * Reads stop for a root once it has ended, and the sweep reads only what has not ended.
 */

/**
 * When a root is read after one of its steps completed, from that completion. The first
 * read waits a little so that the completions of one moment (a step, its sub-workflow)
 * make one read.
 */
export const ROOT_CHECK_DELAYS_MS: readonly number[] = [1_000, 10_000, 60_000];
/**
 * How often the unfinished watched work requests are read: a minute after something
 * happened, then twice as long each time nothing changed, up to ten minutes. A day with a
 * workflow running costs a few hundred list reads at most (one per ten work requests a
 * sweep reads), and a workflow aborted from the web UI is told within minutes.
 */
export const SWEEP_FIRST_MS = 60_000;
export const SWEEP_MAX_MS = 600_000;
/** Roots followed after their steps completed, at most (the oldest are dropped). */
export const ROOT_CHECKS_LIMIT = 100;

export interface EndChecksOptions {
  /** Reads these roots; resolves with those that have ended (they are read no more). */
  checkRoots: (ids: number[]) => Promise<number[]>;
  /** Reads the unfinished watched work requests; resolves with whether any had changed. */
  sweep: () => Promise<boolean>;
  onError: (error: unknown) => void;
  rootDelaysMs?: readonly number[];
  sweepFirstMs?: number;
  sweepMaxMs?: number;
}

export class EndChecks {
  readonly #options: EndChecksOptions;
  /** Per root: the timer of its next read, and which of the delays that read is. */
  readonly #roots = new Map<number, { timer: NodeJS.Timeout; step: number }>();
  /** Roots whose read is due, read together on the next turn. */
  readonly #due = new Set<number>();
  #dueTimer: NodeJS.Timeout | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  #sweepDelay: number;
  readonly #running = new Set<Promise<void>>();
  #closed = false;

  constructor(options: EndChecksOptions) {
    this.#options = options;
    this.#sweepDelay = options.sweepFirstMs ?? SWEEP_FIRST_MS;
  }

  /** A step of this root completed: read the root soon, and a few times after. */
  afterStep(rootId: number): void {
    if (this.#closed) return;
    const known = this.#roots.get(rootId);
    if (known) clearTimeout(known.timer);
    this.#roots.delete(rootId);
    if (this.#roots.size >= ROOT_CHECKS_LIMIT) {
      const oldest = this.#roots.keys().next();
      if (!oldest.done) this.#forget(oldest.value);
    }
    this.#schedule(rootId, 0);
    this.activity();
  }

  /**
   * Something happened (a completion, a work request watched or started): the next sweep
   * comes at the first interval again.
   */
  activity(): void {
    if (this.#closed) return;
    this.#sweepDelay = this.#options.sweepFirstMs ?? SWEEP_FIRST_MS;
    this.#scheduleSweep();
  }

  /** Stops every read to come, and waits for those under way. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const id of [...this.#roots.keys()]) this.#forget(id);
    this.#due.clear();
    clearTimeout(this.#dueTimer);
    clearTimeout(this.#sweepTimer);
    await Promise.all(this.#running);
  }

  #schedule(rootId: number, step: number): void {
    const delays = this.#options.rootDelaysMs ?? ROOT_CHECK_DELAYS_MS;
    const delay = delays[step];
    if (delay === undefined) return;
    const timer = setTimeout(() => {
      this.#due.add(rootId);
      this.#readDue();
    }, delay);
    timer.unref();
    this.#roots.set(rootId, { timer, step });
  }

  #forget(rootId: number): void {
    const known = this.#roots.get(rootId);
    if (known) clearTimeout(known.timer);
    this.#roots.delete(rootId);
  }

  #readDue(): void {
    if (this.#dueTimer) return;
    this.#dueTimer = setTimeout(() => {
      this.#dueTimer = undefined;
      const ids = [...this.#due];
      this.#due.clear();
      // A root whose step completes again while it is read is followed anew from then on:
      // what this read finds must not move that new series along.
      const taken = new Map(ids.map((id) => [id, this.#roots.get(id)]));
      this.#run(async () => {
        // A read that failed is made again at the next delay, as one that found it running.
        const ended = new Set(
          await this.#options.checkRoots(ids).catch((error: unknown) => {
            this.#options.onError(error);
            return [];
          }),
        );
        for (const id of ids) {
          const known = this.#roots.get(id);
          if (!known || known !== taken.get(id)) continue;
          if (ended.has(id)) this.#forget(id);
          else this.#schedule(id, known.step + 1);
        }
      });
    }, 0);
    this.#dueTimer.unref();
  }

  #scheduleSweep(): void {
    clearTimeout(this.#sweepTimer);
    this.#sweepTimer = setTimeout(() => {
      this.#sweepTimer = undefined;
      this.#run(async () => {
        const changed = await this.#options.sweep().catch((error: unknown) => {
          this.#options.onError(error);
          return false;
        });
        const first = this.#options.sweepFirstMs ?? SWEEP_FIRST_MS;
        const max = this.#options.sweepMaxMs ?? SWEEP_MAX_MS;
        this.#sweepDelay = changed ? first : Math.min(this.#sweepDelay * 2, max);
        if (!this.#closed) this.#scheduleSweep();
      });
    }, this.#sweepDelay);
    this.#sweepTimer.unref();
  }

  #run(work: () => Promise<void>): void {
    if (this.#closed) return;
    const running = work().catch((error: unknown) => {
      this.#options.onError(error);
    });
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
  }
}
