/**
 * Where a pending work request stands in the server's queue. The scheduler hands pending
 * work to an idle worker in one order: the higher effective priority (base plus adjustment)
 * first, then the older. Only work a worker of the same architecture can take competes, and
 * the user sees only the work requests they may see: `service-status/` counts all of them
 * per architecture, so what the list does not show is counted apart, as "hidden", and the
 * position is then a lower bound.
 */
import type { WorkRequestResponse } from '../../shared/models';

export interface QueuedWork {
  id: number;
  /** The effective priority: priority_base + priority_adjustment. */
  priority: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** The build architecture a worker must have, or null when any may take it. */
  architecture: string | null;
}

const BUILD_ARCH_TAG = 'worker:build-arch:';

/** The architecture a work request needs, from the tags the scheduler matches workers by. */
export function architectureOf(wr: WorkRequestResponse): string | null {
  const tags = (wr as { scheduler_tags_required?: unknown }).scheduler_tags_required;
  if (Array.isArray(tags)) {
    for (const tag of tags) {
      if (typeof tag === 'string' && tag.startsWith(BUILD_ARCH_TAG)) {
        const arch = tag.slice(BUILD_ARCH_TAG.length);
        if (/^[a-z0-9][a-z0-9-]{0,31}$/.test(arch)) return arch;
      }
    }
    return null;
  }
  // Servers without scheduler tags: the task's own field says it.
  const host = wr.task_data.host_architecture ?? wr.task_data.build_architecture;
  return typeof host === 'string' && /^[a-z0-9][a-z0-9-]{0,31}$/.test(host) ? host : null;
}

export function queuedWork(wr: WorkRequestResponse): QueuedWork {
  return {
    id: wr.id,
    priority: wr.priority_base + wr.priority_adjustment,
    createdAt: Date.parse(wr.created_at),
    architecture: architectureOf(wr),
  };
}

/** Whether the scheduler offers `a` to a worker before `b`. */
export function runsBefore(a: QueuedWork, b: QueuedWork): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt;
  return a.id < b.id;
}

export interface WorkerCounts {
  registered: number;
  connected: number;
  idle: number;
  busy: number;
}

/** What `service-status/` says about one architecture's external workers and their work. */
export interface ArchitectureStatus {
  workers: WorkerCounts;
  pending: number;
  running: number;
}

export interface QueuePosition {
  architecture: string | null;
  /** Pending work the user can see that a worker takes first. */
  ahead: number;
  /**
   * Pending work of the same architecture the user cannot see: any of it may be ahead, so
   * `ahead` is then a lower bound. Null when the server does not count per architecture.
   */
  hidden: number | null;
  /** The architecture's workers, or null when the server does not say. */
  workers: WorkerCounts | null;
}

/**
 * The position of `target` among the pending work the user sees (`visible`, which may hold
 * the target itself and work of other architectures), with the server's own counts.
 */
export function queuePosition(
  target: QueuedWork,
  visible: readonly QueuedWork[],
  status: ArchitectureStatus | null,
): QueuePosition {
  const competing = visible.filter(
    (w) => w.id !== target.id && w.architecture === target.architecture,
  );
  const ahead = competing.filter((w) => runsBefore(w, target)).length;
  const seen = competing.length + 1;
  return {
    architecture: target.architecture,
    ahead,
    hidden: status === null ? null : Math.max(0, status.pending - seen),
    workers: status?.workers ?? null,
  };
}
