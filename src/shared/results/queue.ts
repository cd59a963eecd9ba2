/**
 * What the app says about a step's time in the queue and at work, from the numbers main
 * reads off the server (src/main/queue): how far a running step is against its usual run,
 * and the words for a pending step's place. Shared, so that the page and a notification say
 * the same thing.
 */
import type { QueueEstimate } from '../contract-types';

/** The last successful run like a step, as the page needs it. */
export interface UsualRunSeconds {
  seconds: number;
}

export type RunProgress =
  | { kind: 'usual'; usual: UsualRunSeconds; elapsed: number; fraction: number; overdue: boolean }
  | { kind: 'unknown'; elapsed: number };

/**
 * How far a running step is against its usual run: the fraction stays below 1 while it
 * runs on (a run longer than usual is "overdue", not "done").
 */
export function runProgress(
  startedAt: number | null,
  usual: UsualRunSeconds | null,
  now: number,
): RunProgress {
  const elapsed = startedAt === null ? 0 : Math.max(0, (now - startedAt) / 1000);
  if (usual === null || usual.seconds === 0) return { kind: 'unknown', elapsed };
  const overdue = elapsed > usual.seconds;
  return {
    kind: 'usual',
    usual,
    elapsed,
    fraction: overdue ? 0.99 : elapsed / usual.seconds,
    overdue,
  };
}

/** A length of time as people say it: "40 s", "5 min 40 s", "1 h 20 min". */
export function spokenDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${String(s)} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) {
    const rest = s % 60;
    return rest === 0 ? `${String(minutes)} min` : `${String(minutes)} min ${String(rest)} s`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${String(hours)} h` : `${String(hours)} h ${String(rest)} min`;
}

/** Where a pending step stands, in one line; null when the server gave nothing to say. */
export function positionText(position: QueueEstimate['position']): string | null {
  if (position === null) return null;
  const { ahead, hidden, workers, architecture, truncated } = position;
  const on = architecture === null ? '' : ` on ${architecture}`;
  if (workers !== null && workers.connected === 0) {
    return `No worker${on} is connected: it cannot start until one is`;
  }
  // A worker left idle while the step waits has not taken it: a worker may be limited to
  // some tasks, and the server counts workers per architecture only.
  const idle =
    workers === null || workers.idle === 0
      ? ''
      : workers.idle === 1
        ? '; the idle one has not taken it: not every worker runs every task'
        : `; the ${String(workers.idle)} idle ones have not taken it: not every worker runs every task`;
  const busy =
    workers === null
      ? ''
      : ` (${String(workers.busy)} of ${String(workers.connected)} worker${workers.connected === 1 ? '' : 's'} busy${idle})`;
  if (hidden !== null && hidden > 0) {
    return `At least ${String(ahead)} ahead of you${on}, and ${String(hidden)} more pending that you cannot see${busy}`;
  }
  if (truncated) return `At least ${String(ahead)} ahead of you${on}${busy}`;
  if (ahead === 0) return `Next${on}${busy}`;
  return `${String(ahead)} ahead of you${on}${busy}`;
}

/** How long such a step usually waits to start, or why that cannot be said. */
export function usualStartText(
  usual: QueueEstimate['usualStart'],
  taskName: string,
): string | null {
  if (usual === null) return null;
  switch (usual.kind) {
    case 'within':
      return `Usually starts within ${spokenDuration(usual.seconds)} (half of the last ${String(usual.samples)} ${taskName} starts)`;
    case 'longer':
      return `Usually waits more than ${spokenDuration(usual.seconds)} to start (${String(usual.samples)} ${taskName} starts)`;
    case 'unknown':
      return usual.reason === 'no-metrics'
        ? 'The server does not say how long work waits to start'
        : `Too few ${taskName} starts on this server to say when it usually starts`;
  }
}

/** How long such a step usually runs, or why that cannot be said. */
export function usualRunText(usual: QueueEstimate['usualRun']): string {
  return usual === null
    ? 'No earlier success of this step to measure it by'
    : `The last success took ${spokenDuration(usual.seconds)}`;
}

/** A clock time as the user reads it: "14:20" today, with the day when it is not today. */
export function clockTime(at: number, now: number): string {
  const when = new Date(at);
  const time = when.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (when.toDateString() === new Date(now).toDateString()) return time;
  return `${when.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}

/**
 * When a running workflow is expected to end, against the last success of the same workflow
 * for the same package: its start plus that run's time. Past that time, it says so rather
 * than move the estimate on.
 */
export function workflowFinishText(
  startedAt: number | null,
  usual: QueueEstimate['usualRun'],
  now: number,
): string | null {
  if (startedAt === null || usual === null) return null;
  const progress = runProgress(startedAt, usual, now);
  if (progress.kind !== 'usual') return null;
  if (progress.overdue) {
    return `Running for ${spokenDuration(progress.elapsed)}: longer than the last success of this workflow for this package (${spokenDuration(usual.seconds)})`;
  }
  return `Expected to finish around ${clockTime(startedAt + usual.seconds * 1000, now)}: the last success of this workflow for this package took ${spokenDuration(usual.seconds)}, waits for people included`;
}

/**
 * How often what of the user's cannot start is asked again, and how long main keeps its
 * answer: the tray asks after each burst of events, and each answer reads the server's
 * pending work; a worker that connects is seen within this.
 */
export const STUCK_REFRESH_MS = 60_000;

/**
 * The user's work that no worker can start, in one line for the tray and the window's
 * title; null when there is none.
 */
export function cannotStartText(
  architectures: readonly { name: string | null; waiting: number }[],
): string | null {
  const waiting = architectures.reduce((n, a) => n + a.waiting, 0);
  if (waiting === 0) return null;
  const named = architectures.flatMap((a) => (a.name === null ? [] : [a.name]));
  const none =
    named.length === architectures.length
      ? `no ${named.join(' or ')} worker is connected`
      : 'no worker is connected';
  return `${String(waiting)} of yours cannot start: ${none}`;
}
