/**
 * Whether a work request has ended, and how: the one reading of `status` and `result` that
 * the notifications, the watch list, the counters and the views share.
 *
 * A work request ends `completed`, with a result, or `aborted`, with none: the server
 * leaves an aborted one's result empty. A workflow whose step failed usually ends aborted,
 * not failed: the steps that needed the failed one are aborted, and a workflow with an
 * aborted child is aborted in turn (Debusine's `maybe_finish_workflow`). So `aborted` is an
 * end of its own, and an unsuccessful one, never "still running" nor "no result".
 */
import { WORK_REQUEST_RESULTS, type WorkRequestResult } from '../models';

/** The statuses of a work request that has ended. */
export const ENDED_STATUSES: readonly string[] = ['completed', 'aborted'];

/** The statuses of one that has not ended yet: it waits, or it runs. */
export const ACTIVE_STATUSES: readonly string[] = ['pending', 'blocked', 'running'];

/** What a result the servers do not have is read as. */
export const UNKNOWN_RESULT = 'unknown';

/**
 * A result as the app reads it: one of the results Debusine has (WORK_REQUEST_RESULTS), or
 * `unknown`. A server's result is shown in notification titles and kept in the watch list,
 * and a server may send any string there; reading it as one of a known few keeps the
 * server's text out of them.
 */
export function knownResult(result: string): WorkRequestResult | typeof UNKNOWN_RESULT {
  return (WORK_REQUEST_RESULTS as readonly string[]).includes(result)
    ? (result as WorkRequestResult)
    : UNKNOWN_RESULT;
}

/** The word for how an aborted work request ended (its result is empty). */
export const ABORTED = 'aborted';

export interface StatusAndResult {
  status: string;
  result: string;
}

export function hasEnded(status: string): boolean {
  return ENDED_STATUSES.includes(status);
}

export function isActive(status: string): boolean {
  return ACTIVE_STATUSES.includes(status);
}

/**
 * How it ended: its result when completed (`success`, `failure`, `error`, `skipped`,
 * `temporary failure`, or `unknown` for whatever else a server says), `aborted` when aborted; null while
 * it has not ended.
 */
export function endOf(wr: StatusAndResult): string | null {
  if (wr.status === 'aborted') return ABORTED;
  if (wr.status === 'completed') return knownResult(wr.result);
  return null;
}

/**
 * Whether an end is unsuccessful: everything but `success` and `skipped`, so failures,
 * errors, temporary failures, aborts, and any result the app does not know (better told
 * than missed).
 */
export function isUnsuccessfulEnd(end: string): boolean {
  return end !== 'success' && end !== 'skipped';
}

/** Ended, and not well: failed, errored, aborted… */
export function endedUnsuccessfully(wr: StatusAndResult): boolean {
  const end = endOf(wr);
  return end !== null && isUnsuccessfulEnd(end);
}

/**
 * Completed with an unsuccessful result: it failed by itself, and its own output says why
 * (an aborted step did not run, or stopped before it could tell).
 */
export function failedByItself(wr: StatusAndResult): boolean {
  return wr.status === 'completed' && isUnsuccessfulEnd(wr.result);
}

/**
 * The results after which the server lets a work request be retried (with `aborted`):
 * its own rule, narrower than unsuccessful (an unknown result is not retried).
 */
const RETRIABLE_RESULTS: readonly string[] = ['failure', 'error', 'temporary failure'];

/** Whether the server will retry it: aborted, or completed with a retriable result. */
export function isRetriable(wr: StatusAndResult): boolean {
  return (
    wr.status === 'aborted' || (wr.status === 'completed' && RETRIABLE_RESULTS.includes(wr.result))
  );
}

/**
 * The `result` a notification of a step that waits for the user is recorded with, in place
 * of an end (NotificationRecord).
 */
export const NEEDS_INPUT = 'needs input';

/** Whether a notification's record tells of a failure: an unsuccessful end, not a wait. */
export function notifiesFailure(result: string): boolean {
  return result !== NEEDS_INPUT && isUnsuccessfulEnd(result);
}
