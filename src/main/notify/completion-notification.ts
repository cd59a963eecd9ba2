/**
 * What the app's desktop notifications say: an end's ("Failed: workflow sbuild #42",
 * "Aborted: workflow debian_pipeline #40", the workspace and how it ended, and the buttons
 * the platform can show), and the answer to a Retry button that did not work.
 */
import { lineNumber } from '../../shared/results/failure';
import { ABORTED, endOf, isUnsuccessfulEnd, knownResult } from '../../shared/results/end';
import type { FailureReason } from '../results/failure-reason';
import { completionKey } from './completion-key';
import {
  visibleNotification,
  type CompletionNotification,
  type DesktopNotification,
  type NotificationAction,
  type NotificationActionId,
} from './notifier';

/**
 * One end of a work request, as the websocket or a read of the work request reports it:
 * the websocket only ever reports `completed` ones; a read also finds `aborted` ones
 * (whose `completedAt` is when they were aborted, and whose result is empty).
 */
export interface Completion {
  workRequestId: number;
  completedAt: string;
  result: string;
  /** `completed` (the default) or `aborted`. */
  status?: string;
}

/** How it ended: its result, or `aborted` (shared/results/end.ts). */
export function endOfCompletion(completion: Completion): string {
  return (
    endOf({ status: completion.status ?? 'completed', result: completion.result }) ??
    knownResult(completion.result)
  );
}

/** What a notification names: the task, its kind and its workspace. */
export interface About {
  taskName: string;
  taskType: string;
  workspace: string;
}

const RESULT_WORDS: Record<string, string> = {
  success: 'Succeeded',
  failure: 'Failed',
  error: 'Errored',
  'temporary failure': 'Failed temporarily',
  skipped: 'Skipped',
  [ABORTED]: 'Aborted',
};

/** The notification's key: the same completion shown again replaces it. */
export function notificationKey(completion: Completion): string {
  return `wr-${completionKey(completion.workRequestId, completion.completedAt)}`;
}

/**
 * Title "Failed: workflow sbuild #42"; body with what broke first (the failed step and why,
 * for a workflow: the same reason its page shows), then the workspace and the end. Without
 * `about` (the work request could not be read), the title says "work request".
 */
export function completionNotification(
  completion: Completion,
  about: About | undefined,
  rootId: number | null,
  supportsActions: boolean,
  reason: FailureReason | null = null,
): CompletionNotification {
  const id = completion.workRequestId;
  const end = endOfCompletion(completion);
  // The end is one the app knows (endOf), never the server's own text.
  const word = RESULT_WORDS[end] ?? 'Finished';
  const what = about
    ? `${about.taskType === 'Workflow' ? 'workflow ' : ''}${about.taskName}`
    : 'work request';
  // An aborted work request has no result: "aborted" is all there is to say of its end.
  const how = end === ABORTED ? ABORTED : `result: ${end || 'none'}`;
  const where = about
    ? `Workspace ${about.workspace} · ${how}`
    : how.charAt(0).toUpperCase() + how.slice(1);
  // What broke first ("sbuild hello 2.10-3 amd64 (#31) — build: make: *** … Error 2"),
  // naming the step when it is not the work request itself, then where.
  const step = reason && reason.workRequestId !== id ? ` (#${String(reason.workRequestId)})` : '';
  const line = reason?.log ? ` (log line ${String(lineNumber(reason.log.line))})` : '';
  const body = reason ? `${reason.what}${step} — ${reason.why}${line}\n${where}` : where;
  const failed = isUnsuccessfulEnd(end);
  const actions: NotificationAction[] = [];
  if (supportsActions) {
    // The line the click opens, as a button of its own where buttons show.
    if (reason?.log) actions.push({ id: 'open-log', label: 'Open log' });
    if (failed) actions.push({ id: 'retry', label: 'Retry' });
    actions.push({ id: 'open-in-browser', label: 'Open in browser' });
  }
  // Bounded here, not only where it is shown: whoever shows it (the gate, a test's recorder)
  // gets a title and body of a size a desktop can show.
  return visibleNotification({
    kind: 'completion',
    key: notificationKey(completion),
    title: `${word}: ${what} #${String(id)}`,
    body,
    workRequestId: id,
    actions,
    // Failures (failure, error, temporary failure, abort) stay on screen; failures-only keeps them.
    urgency: failed ? 'critical' : 'normal',
    result: end,
    rootId: rootId === id ? null : rootId,
    reason,
  });
}

/**
 * The answer to a notification's button (Retry, Open in browser, Sign and upload) when it
 * could not be done (the server refused, could not be reached, or sent a page of another
 * site; signing was cancelled): which work request, and why, as the error says it. Nobody
 * waits for the button's answer elsewhere.
 */
export function actionFailedNotification(
  action: Exclude<NotificationActionId, 'open-log'>,
  workRequestId: number,
  reason: string,
): DesktopNotification {
  const id = String(workRequestId);
  const titles: Record<Exclude<NotificationActionId, 'open-log'>, string> = {
    retry: `Could not retry work request #${id}`,
    'open-in-browser': `Could not open work request #${id} in the browser`,
    sign: `Could not sign work request #${id}`,
    abort: `Could not abort work request #${id}`,
  };
  return {
    key: `${action}-failed-${id}`,
    title: titles[action],
    body: reason,
    workRequestId,
    actions: [],
    urgency: 'critical',
  };
}
