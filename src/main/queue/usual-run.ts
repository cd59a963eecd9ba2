/**
 * How long a task usually runs, from the server's task history: each workspace's
 * `_@debusine:task-history` collection keeps recent runs of each task by subject (for a
 * build, the source package) and runtime context (for a build, its architectures), with the
 * run's `runtime_statistics`. The server looks up the last successful one itself
 * (`last-success:TYPE:NAME:SUBJECT:CONTEXT`); the app only names it and reads the answer,
 * which, being the server's, is checked before it is believed.
 */
import type { WorkRequestResponse } from '../../shared/models';

/** The singleton a workspace's history is kept in. */
export const TASK_HISTORY = '_@debusine:task-history';

/** A week: a longer run is not a statistic the app will show as usual. */
const MAX_SECONDS = 7 * 24 * 3600;

/**
 * The lookup of the last successful run like this one, or null when the work request does
 * not say its subject and context yet (the server computes them when the task starts).
 */
export function lastSuccessLookup(wr: WorkRequestResponse): string | null {
  const dynamic = wr.dynamic_task_data;
  if (dynamic === null) return null;
  const subject = dynamic.subject;
  const context = dynamic.runtime_context;
  if (subject !== null && subject !== undefined && typeof subject !== 'string') return null;
  if (context !== null && context !== undefined && typeof context !== 'string') return null;
  if (subject === undefined && context === undefined) return null;
  // The server's own quoting (urllib's quote: '/' kept, the rest of the reserved set escaped).
  const quote = (s: string | null | undefined) =>
    encodeURIComponent(s ?? '')
      .replaceAll('%2F', '/')
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${TASK_HISTORY}/last-success:${wr.task_type}:${wr.task_name}:${quote(subject)}:${quote(context)}`;
}

export interface UsualRun {
  /** The whole run, in seconds. */
  seconds: number;
  /** When it ended, in milliseconds since the epoch, or null when the server does not say. */
  endedAt: number | null;
  /** The work request that ran it. */
  workRequestId: number | null;
}

function seconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_SECONDS
    ? value
    : null;
}

/** Reads a historical run's data; null when it is not one the app can believe. */
export function usualRunOf(data: Record<string, unknown>): UsualRun | null {
  if (data.result !== 'success') return null;
  const stats = data.runtime_statistics;
  if (typeof stats !== 'object' || stats === null) return null;
  const duration = seconds((stats as Record<string, unknown>).duration);
  if (duration === null) return null;
  const timestamp = data.timestamp;
  const id = data.work_request_id;
  return {
    seconds: duration,
    endedAt:
      typeof timestamp === 'number' && Number.isFinite(timestamp) && timestamp > 0
        ? timestamp * 1000
        : null,
    workRequestId: typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null,
  };
}
