/**
 * Steps of watched workflows that wait for the user (a Wait step: `confirm`,
 * `externaldebsign`, or any the workflow marks `needs_input`): one desktop notification
 * each, ever.
 *
 * A step starts waiting without completing, so the completion websocket never names it.
 * What it does name are the other steps of the same workflow as they complete, which is
 * when a workflow moves on and may reach a Wait step. So each completion of a step of a
 * watched workflow asks for a check: one read of the server's running Wait steps, shortly
 * after, for all the completions of that moment together. The same check runs after each
 * (re)connection (a step may have started waiting while the app was offline), and a few
 * seconds after the app starts or the user watches a workflow (the server adds a new
 * workflow's steps in the background, and a Wait step with nothing to wait for starts
 * waiting at once, before any other step completes).
 */
import type { WorkRequestResponse } from '../../shared/models';
import type { DebusineClient } from '../api/client';
import {
  needsInputNotification,
  waitKindOf,
  workflowNameOf,
  type WaitingWorkflow,
  type WaitKind,
} from '../notify/needs-input-notification';
import type { CompletionNotification, NotificationHandlers, Notifier } from '../notify/notifier';
import type { WatchList } from './watch-list';
import { CoalescedRead } from './coalesced-read';

/** How long a check waits for more completions to come with the first one. */
export const NEEDS_INPUT_DEBOUNCE_MS = 300;
/**
 * When the checks after a workflow is started or watched run: the server adds its steps
 * in a background task within seconds, and marks a Wait step that depends on nothing as
 * waiting at its next scheduling pass. Later waits come after another step completes.
 */
export const NEEDS_INPUT_AFTER_START_MS: readonly number[] = [3_000, 15_000];
/**
 * When the checks after a step of a watched workflow completed run, besides the one at
 * once: the step that waits next is often made only then, by its workflow's orchestrator
 * in the background (debian_pipeline's signature wait is created when QA has ended, and
 * starts 2 to 4 s after QA's last completion on a loaded server), and nothing completes
 * after it until the user acts. A burst of completions makes one series, after its last.
 */
export const NEEDS_INPUT_AFTER_STEP_MS: readonly number[] = [5_000, 20_000];
/**
 * Running Wait steps read at most per check. The server answers with every user's waiting
 * steps (newest first), and one that never stops paging must not keep the check reading.
 */
export const NEEDS_INPUT_SCAN_LIMIT = 500;

export interface NeedsInputOptions {
  client: Pick<DebusineClient, 'workRequestGet' | 'workRequestIter'>;
  watchList: WatchList;
  notifier: Notifier<CompletionNotification>;
  /** What a click and the buttons of the notification of this step do. */
  handlersFor: (stepId: number) => NotificationHandlers;
  /**
   * Whether the server's list filters by status and task type, which goes with steps that
   * name their workflow root (0.13+). Without it, every check reads.
   */
  listFilters?: () => Promise<boolean>;
  /** A check failed (the server could not be read, the state file not written). */
  onError: (error: unknown) => void;
  debounceMs?: number;
  afterStartMs?: readonly number[];
  afterStepMs?: readonly number[];
  scanLimit?: number;
}

export class NeedsInputWatch {
  readonly #options: NeedsInputOptions;
  #debounce: NodeJS.Timeout | undefined;
  readonly #later = new Set<NodeJS.Timeout>();
  /** The follow-up checks of the last step completion (afterStep). */
  readonly #followUps = new Set<NodeJS.Timeout>();
  #closed = false;

  /** One read of the running steps at a time (coalesced-read.ts). */
  readonly #reads: CoalescedRead;

  constructor(options: NeedsInputOptions) {
    this.#options = options;
    this.#reads = new CoalescedRead(
      () => this.#checkOnce(),
      (error) => {
        options.onError(error);
      },
    );
  }

  /**
   * A step of a watched workflow completed, or the watcher (re)connected: check soon, with
   * whatever else asks within the debounce delay.
   */
  schedule(): void {
    if (this.#closed || this.#debounce) return;
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.check();
    }, this.#options.debounceMs ?? NEEDS_INPUT_DEBOUNCE_MS);
    this.#debounce.unref();
  }

  /**
   * A step of a watched workflow completed: check soon, and again a few seconds later for
   * the step its workflow makes next (NEEDS_INPUT_AFTER_STEP_MS).
   */
  afterStep(): void {
    if (this.#closed) return;
    this.schedule();
    for (const timer of this.#followUps) clearTimeout(timer);
    this.#followUps.clear();
    this.#scheduleAt(this.#options.afterStepMs ?? NEEDS_INPUT_AFTER_STEP_MS, this.#followUps);
  }

  /** A workflow was started from the app or watched by the user: check a few times. */
  afterStart(workRequest: WorkRequestResponse): void {
    if (this.#closed || workRequest.task_type !== 'Workflow') return;
    this.#scheduleAt(this.#options.afterStartMs ?? NEEDS_INPUT_AFTER_START_MS, this.#later);
  }

  /** A check after each of `delays`, its timer kept in `timers` until it fires (for close). */
  #scheduleAt(delays: readonly number[], timers: Set<NodeJS.Timeout>): void {
    for (const delay of delays) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        this.schedule();
      }, delay);
      timer.unref();
      timers.add(timer);
    }
  }

  /**
   * Reads the running Wait steps and notifies those of watched workflows not notified yet.
   * One read at a time: asked again while reading, it reads once more when done (a step
   * that completed meanwhile may have let another one wait).
   */
  check(): Promise<void> {
    return this.#reads.run();
  }

  #isClosed(): boolean {
    return this.#closed;
  }

  /**
   * Stops every pending check (the watcher of this server is going away), and resolves
   * when the one under way, if any, has ended: nothing writes the watch list after that.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#debounce);
    this.#debounce = undefined;
    for (const timer of [...this.#later, ...this.#followUps]) clearTimeout(timer);
    this.#later.clear();
    this.#followUps.clear();
    await this.#reads.stop();
  }

  async #checkOnce(): Promise<void> {
    const { client, watchList, listFilters } = this.#options;
    if (this.#closed || watchList.data.items.length === 0) return;
    if (listFilters && !(await listFilters())) return;
    const waiting: { step: WorkRequestResponse; kind: WaitKind }[] = [];
    let read = 0;
    const limit = this.#options.scanLimit ?? NEEDS_INPUT_SCAN_LIMIT;
    for await (const step of client.workRequestIter({ status: 'running', taskType: 'Wait' })) {
      if (this.#isClosed()) return;
      // The filters are the server's to apply; what it sends is checked here all the same.
      const kind = step.status === 'running' ? waitKindOf(step) : undefined;
      const root = step.workflow_root;
      if (
        kind &&
        typeof root === 'number' &&
        root !== step.id &&
        watchList.has(root) &&
        !watchList.waitNotified(step.id)
      ) {
        waiting.push({ step, kind });
      }
      if (++read >= limit) break;
    }
    const workflows = new Map<number, Promise<WaitingWorkflow>>();
    // Oldest first, as they started waiting.
    for (const { step, kind } of waiting.reverse()) {
      if (this.#isClosed()) return;
      const rootId = step.workflow_root ?? step.id;
      let workflow = workflows.get(rootId);
      if (!workflow) {
        workflow = this.#workflowOf(rootId, step);
        workflows.set(rootId, workflow);
      }
      await this.#notify(step, kind, await workflow);
    }
  }

  async #notify(
    step: WorkRequestResponse,
    kind: WaitKind,
    workflow: WaitingWorkflow,
  ): Promise<void> {
    const { watchList, notifier } = this.#options;
    if (watchList.waitNotified(step.id)) return;
    // Remembered before it is shown, so that nothing shows it twice; saved after, so that a
    // disk that refuses the write costs a repeat after a restart, not the notification.
    const saved = watchList.markWaitNotified(step.id);
    notifier.show(
      needsInputNotification(step, kind, workflow, notifier.supportsActions),
      this.#options.handlersFor(step.id),
    );
    try {
      await saved;
    } catch (error) {
      this.#options.onError(error);
    }
  }

  /** The workflow's name, read from its root; what the watch list knows if it cannot be read. */
  async #workflowOf(rootId: number, step: WorkRequestResponse): Promise<WaitingWorkflow> {
    try {
      const root = await this.#options.client.workRequestGet(rootId);
      return { id: rootId, name: workflowNameOf(root), workspace: root.workspace };
    } catch {
      const item = this.#options.watchList.get(rootId);
      return {
        id: rootId,
        name: item?.label ?? null,
        workspace: item?.workspace ?? step.workspace,
      };
    }
  }
}
