/**
 * How long a workflow usually takes, from the server's own record of earlier ones: the task
 * history keeps runs of tasks, not of workflows, so the last success of the same workflow
 * for the same package in the same workspace is found among the completed workflow roots,
 * and its time from start to end is the measure. Its steps may have waited for a person (a
 * signature): that wait is part of the time, and the page says so.
 */
import type { WorkRequestResponse } from '../../shared/models';

/** A week: a longer workflow is not a measure the app will show as usual. */
const MAX_SECONDS = 7 * 24 * 3600;

/** What a workflow is "the same" by: its kind, where it runs, and its package. */
export interface WorkflowKey {
  taskName: string;
  workspace: string;
  subject: string;
}

/** The package a workflow works on, as the server names it once the workflow has started. */
export function workflowKey(wr: WorkRequestResponse): WorkflowKey | null {
  if (wr.task_type !== 'Workflow' || (wr.parent ?? null) !== null) return null;
  const subject = wr.dynamic_task_data?.subject;
  if (typeof subject !== 'string' || subject === '') return null;
  return { taskName: wr.task_name, workspace: wr.workspace, subject };
}

export interface WorkflowRun {
  seconds: number;
  /** Milliseconds since the epoch. */
  endedAt: number;
  workRequestId: number;
}

function instant(value: string | null | undefined): number | null {
  if (typeof value !== 'string') return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}

/** One root's run, when it is a success like `key` that the app can believe. */
export function workflowRunOf(key: WorkflowKey, wr: WorkRequestResponse): WorkflowRun | null {
  const other = workflowKey(wr);
  if (other === null) return null;
  if (other.taskName !== key.taskName || other.workspace !== key.workspace) return null;
  if (other.subject !== key.subject) return null;
  if (wr.status !== 'completed' || wr.result !== 'success') return null;
  const started = instant(wr.started_at);
  const ended = instant(wr.completed_at);
  if (started === null || ended === null) return null;
  const seconds = (ended - started) / 1000;
  if (seconds < 0 || seconds > MAX_SECONDS) return null;
  return { seconds, endedAt: ended, workRequestId: wr.id };
}
