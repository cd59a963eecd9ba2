/**
 * A workflow's steps, kept live while it runs.
 *
 * The list endpoint has no parent filter, and steps are created after their root, so the
 * first read goes down the newest-first list until it passes the root's id; rows whose
 * `workflow_root` is the root are its steps. Capped, so that an old workflow on a busy
 * server cannot make it read everything.
 *
 * The server creates a workflow's steps in the background, after Start has answered, and
 * moves them from blocked to pending to running without any message: the completion
 * websocket only tells completions, the first of which comes minutes later. So while the
 * root has not ended, the steps are read again on a timer (and at once on each completion
 * main reports, which makes the query stale). A refresh reads the root, the top of the list
 * down to a little before what the last read saw (new steps are listed on top), and the
 * steps it knew unfinished, by id; not the whole list again. The timer starts at a few
 * seconds and doubles while nothing changes, up to half a minute (faster while no step
 * shows yet: see LIVE_EMPTY_MS); it stops once the root has ended, after a last full read.
 */
import type { BridgeClient, WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { hasEnded } from '@shared/results/end';
import type { QueryContext } from './define';
import { workRequestKeys } from './work-request-keys';

/** Pages of the newest-first list the first read goes through, at most. */
export const STEP_SCAN_MAX_PAGES = 40;
/** Pages a refresh reads from the top for new steps, at most. */
export const NEW_STEPS_MAX_PAGES = 10;
/** Unfinished steps a refresh reads again, at most (the list answers ten a page). */
export const REREAD_MAX = 200;
/**
 * How far before the newest work request the last read saw a refresh reads again: the
 * server lists work requests by creation time, and a step created in a transaction that
 * commits later shows up under a time already passed.
 */
export const COMMIT_MARGIN_MS = 30_000;
/** The refresh timer: from this, doubled each time nothing changed, up to LIVE_MAX_MS. */
export const LIVE_FIRST_MS = 3_000;
export const LIVE_MAX_MS = 30_000;
/**
 * While a running workflow shows no step yet, the server is making them: it commits them
 * all at once when its orchestrator is done, seconds after Start (10 s on a loaded machine),
 * and that moment is when the user looks. Read every LIVE_EMPTY_MS then, without backoff,
 * for EMPTY_READS reads at most (a minute), then as any other quiet workflow.
 */
export const LIVE_EMPTY_MS = 1_500;
export const EMPTY_READS = 40;

export interface WorkflowStepsData {
  /** The workflow's root as read with the steps: whether it has ended says whether to go on. */
  root: WorkRequestResponse;
  steps: WorkRequestResponse[];
  /** The first read reached the root: no older step was left unread. */
  complete: boolean;
  /** The creation time of the newest work request read from the top of the list. */
  newest: string | null;
  /** Refreshes in a row that found nothing new, for the timer's backoff. */
  quiet: number;
}

/** One step as far as the tree shows it: a change of any of these is a change. */
function signature(wr: WorkRequestResponse): string {
  return [wr.status, wr.result, wr.parent, wr.artifacts.length, wr.completed_at].join('|');
}

/**
 * Reads the list from the top, one page at a time, until `stop` says a row is past what is
 * wanted or `maxPages` were read; the steps of `rootId` it found, and the newest row.
 */
async function readTop(
  bridge: BridgeClient,
  rootId: number,
  maxPages: number,
  stop: (wr: WorkRequestResponse) => boolean,
): Promise<{ steps: WorkRequestResponse[]; newest: string | null; reached: boolean }> {
  const steps: WorkRequestResponse[] = [];
  let newest: string | null = null;
  let cursor: string | null = null;
  for (let n = 0; n < maxPages; n++) {
    const page: WorkRequestPage = await bridge.workRequests.page(cursor === null ? {} : { cursor });
    newest ??= page.items[0]?.created_at ?? null;
    let reached = false;
    for (const wr of page.items) {
      // A root's own workflow_root is itself on current servers.
      if (wr.workflow_root === rootId && wr.id !== rootId) steps.push(wr);
      if (stop(wr)) reached = true;
    }
    cursor = page.nextCursor;
    if (reached || cursor === null) return { steps, newest, reached: true };
  }
  return { steps, newest, reached: false };
}

/** These work requests, by id (every page of the answer). */
async function readIds(bridge: BridgeClient, ids: number[]): Promise<WorkRequestResponse[]> {
  if (ids.length === 0) return [];
  const out: WorkRequestResponse[] = [];
  let page = await bridge.workRequests.page({ ids });
  for (;;) {
    for (const item of page.items) out.push(item);
    if (page.nextCursor === null) return out;
    page = await bridge.workRequests.page({ cursor: page.nextCursor });
  }
}

/**
 * The steps of the workflow whose root is `rootId`: read whole the first time and once the
 * root has ended, refreshed from `previous` (the query's last answer) otherwise. Work
 * requests whose own page is open (their entry is in the cache) get what was read too.
 */
export async function readWorkflowSteps(
  bridge: BridgeClient,
  rootId: number,
  context: QueryContext | undefined,
): Promise<WorkflowStepsData> {
  const previous = context?.client.getQueryData<WorkflowStepsData>(context.queryKey);
  const root = await bridge.workRequests.get({ id: rootId });
  let data: WorkflowStepsData;
  if (!previous || hasEnded(root.status)) {
    const read = await readTop(bridge, rootId, STEP_SCAN_MAX_PAGES, (wr) => wr.id < rootId);
    data = { root, steps: read.steps, complete: read.reached, newest: read.newest, quiet: 0 };
  } else {
    const boundary =
      previous.newest === null ? Number.NaN : Date.parse(previous.newest) - COMMIT_MARGIN_MS;
    const fresh = await readTop(
      bridge,
      rootId,
      NEW_STEPS_MAX_PAGES,
      (wr) => wr.id < rootId || Date.parse(wr.created_at) < boundary,
    );
    const found = new Set(fresh.steps.map((s) => s.id));
    const unfinished = previous.steps
      .filter((s) => !found.has(s.id) && !hasEnded(s.status))
      .slice(0, REREAD_MAX)
      .map((s) => s.id);
    const byId = new Map(previous.steps.map((s) => [s.id, s]));
    for (const step of [...fresh.steps, ...(await readIds(bridge, unfinished))]) {
      if (step.workflow_root === rootId && step.id !== rootId) byId.set(step.id, step);
    }
    data = {
      root,
      steps: [...byId.values()],
      complete: previous.complete,
      newest: fresh.newest ?? previous.newest,
      quiet: 0,
    };
  }
  if (previous) {
    const before = new Map(previous.steps.map((s) => [s.id, signature(s)]));
    const same =
      signature(previous.root) === signature(root) &&
      data.steps.length === before.size &&
      data.steps.every((s) => before.get(s.id) === signature(s));
    data.quiet = same ? previous.quiet + 1 : 0;
  }
  if (context) shareWithPages(context, [root, ...data.steps]);
  return data;
}

/** Writes what was read into the entries of the work requests whose page is open. */
function shareWithPages(context: QueryContext, read: WorkRequestResponse[]): void {
  const scope = context.queryKey[0];
  if (typeof scope !== 'string') return;
  for (const wr of read) {
    const key = workRequestKeys.detail(scope, wr.id);
    const known = context.client.getQueryData<WorkRequestResponse>(key);
    if (known && signature(known) !== signature(wr)) context.client.setQueryData(key, wr);
  }
}

/**
 * When to read the steps again: never once the root has ended; otherwise from LIVE_FIRST_MS,
 * doubled for each refresh in a row that found nothing new, up to LIVE_MAX_MS. A workflow
 * running for an hour costs a handful of requests every half minute while its page is open
 * (and none while the window is hidden: react-query does not refetch in the background).
 */
export function stepsRefreshDelay(data: WorkflowStepsData | undefined): number | false {
  if (!data || hasEnded(data.root.status)) return false;
  if (data.steps.length === 0 && data.quiet < EMPTY_READS) return LIVE_EMPTY_MS;
  return Math.min(LIVE_FIRST_MS * 2 ** Math.min(data.quiet, 10), LIVE_MAX_MS);
}
