/**
 * `queue.estimate`: where a step stands in its server's queue and how long such steps
 * usually take, from the server's own numbers (src/main/queue reads them). Each number the
 * server cannot give is left out and said in `missing`, never filled in.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { DebusineClient } from '../api/client';
import type { ServiceStatus } from '../api/service-status';
import { isDebusineError } from '../../shared/errors';
import type { QueueEstimate, QueueStuck } from '../../shared/contract-types';
import { STUCK_REFRESH_MS } from '../../shared/results/queue';
import type { WorkRequestResponse } from '../../shared/models';
import {
  architectureOf,
  queuePosition,
  queuedWork,
  type ArchitectureStatus,
} from '../queue/position';
import { parseStartLatencies, usualStart } from '../queue/start-latency';
import { lastSuccessLookup, usualRunOf } from '../queue/usual-run';
import { workflowKey, workflowRunOf, type WorkflowKey } from '../queue/workflow-run';
import type { SessionProvider } from './session';

type Handlers = Pick<ServiceHandlers, 'queue.estimate' | 'queue.status' | 'queue.stuck'>;

/** What the user watches on the active server, as the watch list last saw it. */
export interface WatchedWork {
  workRequestId: number;
  lastStatus: string | null;
}

export interface QueueDeps {
  session: SessionProvider;
  /** The active server's watch list: the user's own work, as the tray counts it. */
  watched: () => readonly WatchedWork[];
  now?: () => number;
}

/** How long an answer of `queue.stuck` is kept (the askers poll at the same pace). */
export const STUCK_TTL_MS = STUCK_REFRESH_MS;

const NOTHING_STUCK: QueueStuck = { architectures: [], workRequestIds: [] };

/**
 * Pending work requests read to place a step: the scheduler's queue on a busy server is
 * longer, and then the position is a lower bound ("at least").
 */
export const QUEUE_SCAN = 1_000;

/** Whether the server filters its work request list (0.11 sends all of it, whatever asked). */
async function filtersWork(c: DebusineClient): Promise<boolean> {
  return (await c.serverRevision()).features.workRequestFilters;
}

function why(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const NO_WORKERS = { registered: 0, connected: 0, idle: 0, busy: 0 };

/**
 * One architecture's counts. The server counts workers per architecture: one it names no
 * worker for has none, and work of it cannot start.
 */
function countsFor(status: ServiceStatus, arch: string): ArchitectureStatus {
  const w = status.external_workers_arch?.[arch] ?? NO_WORKERS;
  const queue = status.worker_tasks_arch?.[arch];
  return {
    workers: { registered: w.registered, connected: w.connected, idle: w.idle, busy: w.busy },
    pending: queue?.pending ?? 0,
    running: queue?.running ?? 0,
  };
}

/** A pending Worker step's place in the queue, or null (said in `missing`) when not known. */
async function placeOf(
  c: DebusineClient,
  wr: WorkRequestResponse,
  status: ServiceStatus,
  missing: string[],
): Promise<QueueEstimate['position']> {
  // A server that cannot list pending work alone (0.11 filters nothing) would send all its
  // work requests to find it: the place is then not read, and said so.
  if (!(await filtersWork(c))) {
    missing.push('the place in the queue: this server cannot list its pending work alone');
    return null;
  }
  const target = queuedWork(wr);
  const arch = target.architecture;
  const counts =
    arch === null || status.external_workers_arch === undefined ? null : countsFor(status, arch);
  const visible = await pendingWork(c).catch((error: unknown) => {
    missing.push(`the pending work: ${why(error)}`);
    return null;
  });
  if (visible === null) return null;
  return {
    ...queuePosition(target, visible.items.map(queuedWork), counts),
    truncated: visible.truncated,
  };
}

async function pendingWork(
  c: DebusineClient,
): Promise<{ items: WorkRequestResponse[]; truncated: boolean }> {
  const items: WorkRequestResponse[] = [];
  for await (const wr of c.workRequestIter({ status: 'pending', taskType: 'Worker' })) {
    if (items.length >= QUEUE_SCAN) return { items, truncated: true };
    items.push(wr);
  }
  return { items, truncated: false };
}

/**
 * The watched work no worker can start: pending steps that are, or belong to a workflow
 * that is, on the watch list, of an architecture none of whose workers is connected. A step
 * any worker may take is stuck only when no worker at all is connected.
 */
export function stuckWork(
  watched: ReadonlySet<number>,
  pending: readonly WorkRequestResponse[],
  status: ServiceStatus,
): QueueStuck {
  const anyConnected = Object.values(status.external_workers_arch ?? {}).reduce(
    (n, w) => n + w.connected,
    0,
  );
  const waiting = new Map<string | null, number>();
  const stuck: number[] = [];
  for (const wr of pending) {
    const root = wr.workflow_root;
    if (!watched.has(wr.id) && !(root != null && watched.has(root))) continue;
    const arch = architectureOf(wr);
    const connected = arch === null ? anyConnected : countsFor(status, arch).workers.connected;
    if (connected > 0) continue;
    stuck.push(wr.id);
    waiting.set(arch, (waiting.get(arch) ?? 0) + 1);
  }
  return {
    architectures: [...waiting]
      .map(([name, count]) => ({ name, waiting: count }))
      .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '')),
    workRequestIds: stuck.sort((a, b) => b - a),
  };
}

/**
 * Completed workflow roots read to find the last success like a running one: a workflow run
 * again for the same package is usually among a workspace's recent ones.
 */
export const WORKFLOW_SCAN = 300;

/** The last success of the same workflow for the same package, among the newest completed roots. */
async function lastWorkflowSuccess(
  c: DebusineClient,
  key: WorkflowKey,
): Promise<QueueEstimate['usualRun']> {
  let read = 0;
  for await (const root of c.workRequestIter({
    status: 'completed',
    taskType: 'Workflow',
    rootOnly: true,
  })) {
    const run = workflowRunOf(key, root);
    if (run !== null) {
      return {
        seconds: run.seconds,
        endedAt: new Date(run.endedAt).toISOString(),
        workRequestId: run.workRequestId,
      };
    }
    if (++read >= WORKFLOW_SCAN) break;
  }
  return null;
}

async function lastSuccess(
  c: DebusineClient,
  wr: WorkRequestResponse,
  lookup: string,
): Promise<QueueEstimate['usualRun']> {
  const found = await c
    .lookupSingle({ lookup, workspace: wr.workspace, expect_type: 'bare' })
    .catch((error: unknown) => {
      // No run like it yet (a first build) is an answer, not a failure.
      if (isDebusineError(error) && error.code === 'not-found') return null;
      throw error;
    });
  const item = found?.collection_item;
  if (typeof item !== 'object' || item === null) return null;
  const data = (item as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  const run = usualRunOf(data as Record<string, unknown>);
  if (run === null) return null;
  return {
    seconds: run.seconds,
    endedAt: run.endedAt === null ? null : new Date(run.endedAt).toISOString(),
    workRequestId: run.workRequestId,
  };
}

export function queueHandlers(deps: QueueDeps): Handlers {
  const { session } = deps;
  const now = deps.now ?? Date.now;
  let kept: { key: string; at: number; answer: QueueStuck } | null = null;
  return {
    'queue.estimate': async ({ id }) => {
      const c = session.client();
      const wr = await c.workRequestGet(id);
      const missing: string[] = [];
      const estimate: QueueEstimate = {
        workRequestId: wr.id,
        position: null,
        usualStart: null,
        usualRun: null,
        historyAsked: false,
        missing,
      };
      if (wr.status === 'pending' && wr.task_type === 'Worker') {
        const [status, latencies] = await Promise.all([
          c.serviceStatus().catch((error: unknown) => {
            missing.push(`the queue's counts: ${why(error)}`);
            return null;
          }),
          c
            .openMetrics()
            .then(parseStartLatencies)
            .catch((error: unknown) => {
              missing.push(`how long work waits to start: ${why(error)}`);
              return null;
            }),
        ]);
        if (status !== null) estimate.position = await placeOf(c, wr, status, missing);
        estimate.usualStart = usualStart(latencies, wr.task_type, wr.task_name);
      }
      // A workflow runs no task of its own: the task history has nothing like it, and the
      // completed roots are read instead.
      const key = wr.status === 'running' ? workflowKey(wr) : null;
      if (key !== null) {
        if (await filtersWork(c)) {
          estimate.historyAsked = true;
          estimate.usualRun = await lastWorkflowSuccess(c, key).catch((error: unknown) => {
            missing.push(`earlier runs: ${why(error)}`);
            return null;
          });
        } else {
          missing.push('earlier runs: this server cannot list its completed workflows alone');
        }
      }
      const lookup = lastSuccessLookup(wr);
      if (
        (wr.status === 'pending' || wr.status === 'running') &&
        wr.task_type !== 'Workflow' &&
        lookup !== null
      ) {
        estimate.historyAsked = true;
        estimate.usualRun = await lastSuccess(c, wr, lookup).catch((error: unknown) => {
          missing.push(`earlier runs: ${why(error)}`);
          return null;
        });
      }
      return estimate;
    },

    'queue.stuck': async () => {
      const active = new Set(
        deps
          .watched()
          .filter((e) => e.lastStatus === 'pending' || e.lastStatus === 'running')
          .map((e) => e.workRequestId),
      );
      if (active.size === 0) return NOTHING_STUCK;
      // The answer is the active server's, for the work watched now.
      const key = `${session.active()?.id ?? ''} ${[...active].sort((a, b) => a - b).join(',')}`;
      if (kept !== null && kept.key === key && now() - kept.at < STUCK_TTL_MS) return kept.answer;
      const c = session.client();
      // A server that cannot list its pending work alone would send all of it.
      if (!(await filtersWork(c))) return NOTHING_STUCK;
      const [status, pending] = await Promise.all([c.serviceStatus(), pendingWork(c)]);
      const answer = stuckWork(active, pending.items, status);
      kept = { key, at: now(), answer };
      return answer;
    },

    'queue.status': async () => {
      const status = await session
        .client()
        .serviceStatus()
        .catch((error: unknown) => {
          // An older server has no counts: an answer, not a failure of the page.
          if (isDebusineError(error) && error.code === 'unsupported') return error.message;
          throw error;
        });
      if (typeof status === 'string') return { architectures: [], unavailable: status };
      const names = new Set([
        ...Object.keys(status.external_workers_arch ?? {}),
        ...Object.keys(status.worker_tasks_arch ?? {}),
      ]);
      return {
        architectures: [...names].sort().map((name) => ({ name, ...countsFor(status, name) })),
        unavailable: null,
      };
    },
  };
}
