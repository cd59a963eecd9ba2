/**
 * A workflow's tree: its root and its steps, kept in step with the server while anything
 * in it has not ended.
 *
 * The list endpoint has no parent filter, and steps are created after their root, so the
 * first read goes down the newest-first list until it passes the root's id; rows whose
 * `workflow_root` is the root are its steps. Capped, so that an old workflow on a busy
 * server cannot make it read everything.
 *
 * Most changes of a step come with no message: the server creates a workflow's steps in
 * the background after Start has answered, unblocks them, starts them, and aborts them (a
 * failed build aborts the rest of the pipeline and the root, and so does an abort in the
 * web UI), and the completion websocket tells none of that; it tells completions only. So
 * while anything in the tree has not ended, the tree is read again every few seconds,
 * whatever main reports, and at once when main reports a completion or a change in it or
 * the user acts on one of its steps (events.ts, the mutations), so that any change shows
 * within 5 s. A refresh reads the root, the top of the list down to a little before what
 * the last read saw (new steps are listed on top), and the steps it knew unfinished, by
 * id; not the whole list again. When the root ends the tree is read whole once more, and
 * reads stop once the root and every step have ended. While the window is hidden nothing
 * is read (react-query's interval skips its reads then), and the first tick after it is
 * shown again reads.
 */
import type { BridgeClient, WorkRequestPage, WorkRequestResponse } from '@shared/contract';
import { hasEnded } from '@shared/results/end';
import type { QueryContext } from './define';
import { readByIds, shareRows } from './work-request-rows';

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
/**
 * The refresh timer: from this, doubled each time nothing changed, up to LIVE_MAX_MS. The
 * bound keeps a change that no message tells within 5 s of showing: this wait, and one
 * read of a loaded server.
 */
export const LIVE_FIRST_MS = 3_000;
export const LIVE_MAX_MS = 4_000;
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
  signal: AbortSignal | undefined,
): Promise<{ steps: WorkRequestResponse[]; newest: string | null; reached: boolean }> {
  const steps: WorkRequestResponse[] = [];
  let newest: string | null = null;
  let cursor: string | null = null;
  for (let n = 0; n < maxPages; n++) {
    // A read replaced by a newer one (main reported a change meanwhile) asks nothing more.
    signal?.throwIfAborted();
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

/**
 * The steps of the workflow whose root is `rootId`: read whole the first time and when the
 * root has just ended, refreshed from `previous` (the query's last answer) otherwise. The
 * pages open on these work requests, and the lists that hold them, get what was read too.
 */
export async function readWorkflowSteps(
  bridge: BridgeClient,
  rootId: number,
  context: QueryContext | undefined,
): Promise<WorkflowStepsData> {
  const previous = context?.client.getQueryData<WorkflowStepsData>(context.queryKey);
  const signal = context?.signal;
  const root = await bridge.workRequests.get({ id: rootId });
  const ended = hasEnded(root.status);
  let data: WorkflowStepsData;
  if (!previous || (ended && !hasEnded(previous.root.status))) {
    const read = await readTop(bridge, rootId, STEP_SCAN_MAX_PAGES, (wr) => wr.id < rootId, signal);
    data = { root, steps: read.steps, complete: read.reached, newest: read.newest, quiet: 0 };
  } else {
    const boundary =
      previous.newest === null ? Number.NaN : Date.parse(previous.newest) - COMMIT_MARGIN_MS;
    // A workflow that has ended makes no new steps: only those it left unfinished are read.
    const fresh = ended
      ? { steps: [], newest: null }
      : await readTop(
          bridge,
          rootId,
          NEW_STEPS_MAX_PAGES,
          (wr) => wr.id < rootId || Date.parse(wr.created_at) < boundary,
          signal,
        );
    const found = new Set(fresh.steps.map((s) => s.id));
    const unfinished = previous.steps
      .filter((s) => !found.has(s.id) && !hasEnded(s.status))
      .slice(0, REREAD_MAX)
      .map((s) => s.id);
    signal?.throwIfAborted();
    const reread = await readByIds(bridge, unfinished, STEP_SCAN_MAX_PAGES, signal);
    const byId = new Map(previous.steps.map((s) => [s.id, s]));
    for (const step of [...fresh.steps, ...reread]) {
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
  const scope = context?.queryKey[0];
  if (context && typeof scope === 'string') shareRows(context.client, scope, [root, ...data.steps]);
  return data;
}

/** Whether the root and every step of the tree have ended: nothing in it changes any more. */
export function treeEnded(data: WorkflowStepsData): boolean {
  return hasEnded(data.root.status) && data.steps.every((s) => hasEnded(s.status));
}

/**
 * When to read the tree again: never once everything in it has ended; otherwise from
 * LIVE_FIRST_MS, doubled for each refresh in a row that found nothing new, up to
 * LIVE_MAX_MS. An open workflow costs one tree read every few seconds (the root, a page or
 * two of the top of the list, a page per ten unfinished steps) however many steps it has,
 * and none while the window is hidden (react-query does not refetch in the background).
 */
export function stepsRefreshDelay(data: WorkflowStepsData | undefined): number | false {
  if (!data || treeEnded(data)) return false;
  if (!hasEnded(data.root.status) && data.steps.length === 0 && data.quiet < EMPTY_READS) {
    return LIVE_EMPTY_MS;
  }
  return Math.min(LIVE_FIRST_MS * 2 ** Math.min(data.quiet, 10), LIVE_MAX_MS);
}
