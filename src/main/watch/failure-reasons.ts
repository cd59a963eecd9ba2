/**
 * The explanations of failures the router waits for before it notifies one: each failed
 * task's (its build log's error line...), and each workflow's, which is its first failed
 * step's, kept when that step completed, or asked of the server when the app did not see
 * it complete.
 */
import type { WorkRequestResponse } from '../../shared/models';
import { BoundedMap } from '../bounded';
import type { FailureReason } from '../results/failure-reason';

/** Explanations kept: one per failed task, and the first failure of each workflow. */
const REASONS_LIMIT = 500;
/**
 * How long a failure's notification waits for its explanation (a build log to download
 * and read) before it is shown without one.
 */
const REASON_WAIT_MS = 4000;

export class FailureReasons {
  readonly #explain: (workRequest: WorkRequestResponse) => Promise<FailureReason | null>;
  readonly #onError: (error: unknown) => void;
  readonly #explainById: ((id: number) => Promise<FailureReason | null>) | undefined;
  /** Explanations by failed task, and by workflow root (its first failed step's). */
  readonly #reasons = new BoundedMap<number, Promise<FailureReason | null>>(REASONS_LIMIT);
  readonly #rootReasons = new BoundedMap<number, Promise<FailureReason | null>>(REASONS_LIMIT);

  constructor(
    explain: (workRequest: WorkRequestResponse) => Promise<FailureReason | null>,
    onError: (error: unknown) => void,
    explainById?: (id: number) => Promise<FailureReason | null>,
  ) {
    this.#explain = explain;
    this.#onError = onError;
    this.#explainById = explainById;
  }

  /** Starts explaining a failed task, and keeps it as its workflow's first failure. */
  explain(workRequest: WorkRequestResponse): void {
    // A workflow's own reason is its first failed step's, kept when that step completed.
    if (workRequest.task_type !== 'Worker' || this.#reasons.has(workRequest.id)) return;
    const reason = this.#caught(this.#explain(workRequest));
    this.#reasons.set(workRequest.id, reason);
    const root = workRequest.workflow_root;
    if (root !== null && root !== undefined && root !== workRequest.id) {
      if (!this.#rootReasons.has(root)) this.#rootReasons.set(root, reason);
    }
  }

  /**
   * The explanation of this failed task or workflow, if one comes in time: the one started
   * when it (or, for a workflow, its first failed step) completed, else, with `askServer`,
   * one asked of the server now. Asking costs the server a read of the work request and,
   * for a workflow, a list of the worker tasks newer than it: the router asks only for
   * what the user watches, never for every failure of a workspace (aborting a big
   * workflow fails dozens of sub-workflows at once).
   */
  async reasonFor(id: number, askServer: boolean): Promise<FailureReason | null> {
    let pending = this.#reasons.get(id) ?? this.#rootReasons.get(id);
    if (!pending && askServer && this.#explainById) {
      pending = this.#caught(this.#explainById(id));
      this.#reasons.set(id, pending);
    }
    if (!pending) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        resolve(null);
      }, REASON_WAIT_MS);
    });
    try {
      return await Promise.race([pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  #caught(reason: Promise<FailureReason | null>): Promise<FailureReason | null> {
    return reason.catch((error: unknown) => {
      this.#onError(error);
      return null;
    });
  }
}
