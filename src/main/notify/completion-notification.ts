/**
 * What the app's desktop notifications say: a completion's ("Failed: workflow sbuild #42",
 * the workspace and the result, and the buttons the platform can show), and the answer to
 * a Retry button that did not work.
 */
import type { FailureReason } from '../results/failure-reason';
import { completionKey } from '../watch/messages';
import type {
  CompletionNotification,
  DesktopNotification,
  NotificationAction,
  NotificationActionId,
} from './notifier';

/** One completion, as the websocket or a catch-up read reports it. */
export interface Completion {
  workRequestId: number;
  completedAt: string;
  result: string;
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
};

/** The notification's key: the same completion shown again replaces it. */
export function notificationKey(completion: Completion): string {
  return `wr-${completionKey(completion.workRequestId, completion.completedAt)}`;
}

/**
 * Title "Failed: workflow sbuild #42"; body with workspace and result. Without `about`
 * (the work request could not be read), the title says "work request".
 */
export function completionNotification(
  completion: Completion,
  about: About | undefined,
  rootId: number | null,
  supportsActions: boolean,
  reason: FailureReason | null = null,
): CompletionNotification {
  const id = completion.workRequestId;
  const { result } = completion;
  const word = RESULT_WORDS[result] ?? (result || 'Finished');
  const what = about
    ? `${about.taskType === 'Workflow' ? 'workflow ' : ''}${about.taskName}`
    : 'work request';
  const where = about
    ? `Workspace ${about.workspace} · result: ${result || 'none'}`
    : `Result: ${result || 'none'}`;
  // What broke first ("sbuild hello 2.10-3 amd64 — build: make: *** … Error 2"), then where.
  const body = reason ? `${reason.what} — ${reason.why}\n${where}` : where;
  const failed = result !== 'success' && result !== 'skipped';
  const actions: NotificationAction[] = [];
  if (supportsActions) {
    if (failed) actions.push({ id: 'retry', label: 'Retry' });
    actions.push({ id: 'open-in-browser', label: 'Open in browser' });
  }
  return {
    kind: 'completion',
    key: notificationKey(completion),
    title: `${word}: ${what} #${String(id)}`,
    body,
    workRequestId: id,
    actions,
    // Failures (failure, error, temporary failure) stay on screen; failures-only keeps them.
    urgency: failed ? 'critical' : 'normal',
    result,
    rootId: rootId === id ? null : rootId,
    reason,
  };
}

/**
 * The answer to a notification's button (Retry, Open in browser, Sign and upload) when it
 * could not be done (the server refused, could not be reached, or sent a page of another
 * site; signing was cancelled): which work request, and why, as the error says it. Nobody
 * waits for the button's answer elsewhere.
 */
export function actionFailedNotification(
  action: NotificationActionId,
  workRequestId: number,
  reason: string,
): DesktopNotification {
  const id = String(workRequestId);
  const titles: Record<NotificationActionId, string> = {
    retry: `Could not retry work request #${id}`,
    'open-in-browser': `Could not open work request #${id} in the browser`,
    sign: `Could not sign work request #${id}`,
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
