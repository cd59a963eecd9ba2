/**
 * The workflow list as Debusine's web UI has it (`/{scope}/{workspace}/workflow/`): its
 * facets, how a workflow's "runtime status" is told from its steps, the per-status step
 * counts and last activity of a row, and the query string that opens the same view on the
 * web. The web's names and values are Debusine's own (debusine/web/views/tables.py,
 * WorkflowTable, and debusine/web/forms.py, WorkflowFilterForm); the runtime status follows
 * `compute_workflow_runtime_status` (debusine/db/models/work_requests.py).
 *
 * Everything here reads what a server sent, which may be anything: unknown statuses and
 * results are never put in a query string, and names too long to be real are not offered.
 */
import { WORK_REQUEST_RESULTS, WORK_REQUEST_STATUSES } from '../models';

/** The web's runtime statuses of a running workflow, with the web's labels, in its order. */
export const RUNTIME_STATUSES = [
  ['needs_input', 'Needs input'],
  ['running', 'Running'],
  ['waiting', 'Waiting'],
  ['pending', 'Pending'],
  ['aborted', 'Aborted'],
  ['completed', 'Completed'],
  ['blocked', 'Blocked'],
] as const;
export type RuntimeStatus = (typeof RUNTIME_STATUSES)[number][0];

/** The facets of the workflow list; each is "" (or false) for "any". */
export interface WorkflowFilters {
  /** The root's status: one of WORK_REQUEST_STATUSES; the server filters on it. */
  status: string;
  /**
   * What a running workflow's steps are doing (RUNTIME_STATUSES). The web tells it only of
   * running workflows (its `running__<runtime status>` status values), so one chosen here
   * means the status is `running` too.
   */
  runtimeStatus: string;
  result: string;
  /** The name of the template the workflow was started from. */
  template: string;
  /** The username of who started it. */
  startedBy: string;
  /** Only workflows with a step that failed and was not allowed to. */
  withFailed: boolean;
}

export const NO_WORKFLOW_FILTERS: WorkflowFilters = {
  status: '',
  runtimeStatus: '',
  result: '',
  template: '',
  startedBy: '',
  withFailed: false,
};

/**
 * Template names and usernames longer than this are not offered as choices: no real one
 * is this long, and a view naming one would not fit in a link the app opens.
 */
const MAX_NAME_LENGTH = 150;

/** What the web's query string names each facet (the table's filter prefix is `filter`). */
const WEB_PARAMS = {
  statuses: 'filter-statuses',
  results: 'filter-results',
  workflowTemplates: 'filter-workflow_templates',
  startedBy: 'filter-started_by',
  withFailed: 'filter-with_failed_work_requests',
} as const;

/** A work request as far as these functions read it; `workflow_data` is as the server sent it. */
export interface StepFields {
  id: number;
  status: string;
  result: string;
  task_type: string;
  created_at?: string;
  started_at: string | null;
  completed_at: string | null;
  workflow_data?: unknown;
}

const isKnownStatus = (s: string): boolean =>
  (WORK_REQUEST_STATUSES as readonly string[]).includes(s);
const isKnownResult = (r: string): boolean =>
  r !== '' && (WORK_REQUEST_RESULTS as readonly string[]).includes(r);
const isRuntimeStatus = (r: string): r is RuntimeStatus => RUNTIME_STATUSES.some(([v]) => v === r);

/** A usable name: a non-empty string of a length real names have. */
export function boundedName(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value.length <= MAX_NAME_LENGTH
    ? value
    : null;
}

/** One field of a work request's `workflow_data`, whatever the server sent there. */
function workflowDataField(wr: StepFields, field: string): unknown {
  const data = wr.workflow_data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return Object.prototype.hasOwnProperty.call(data, field)
    ? (data as Record<string, unknown>)[field]
    : undefined;
}

/**
 * The template a workflow was started from: the server records its name in the root's
 * `workflow_data` when it starts one from a template, which is what the web's template
 * facet lists (a workflow created some other way has none).
 */
export function templateName(root: StepFields): string | null {
  return boundedName(workflowDataField(root, 'workflow_template_name'));
}

/** The steps the web counts: its leaves (no sub-workflows), and not those it hides. */
function leaves(steps: readonly StepFields[]): StepFields[] {
  return steps.filter((s) => s.task_type !== 'Workflow');
}

function visible(step: StepFields): boolean {
  return workflowDataField(step, 'visible') !== false;
}

/**
 * A workflow's runtime status from all its steps (hidden ones too, as the web): an
 * answer a person must give, then work running, then a wait for something else, then
 * steps that wait their turn, that are blocked or were aborted; else it is done.
 * A running wait step whose `needs_input` is not true is read as waiting for something
 * other than a person.
 */
export function runtimeStatus(steps: readonly StepFields[]): RuntimeStatus {
  const all = leaves(steps);
  const waits = all.filter((s) => s.task_type === 'Wait' && s.status === 'running');
  if (waits.some((s) => workflowDataField(s, 'needs_input') === true)) return 'needs_input';
  if (all.some((s) => s.task_type !== 'Wait' && s.status === 'running')) return 'running';
  if (waits.length > 0) return 'waiting';
  if (all.some((s) => s.status === 'pending')) return 'pending';
  if (all.some((s) => s.status === 'blocked')) return 'blocked';
  if (all.some((s) => s.status === 'aborted')) return 'aborted';
  return 'completed';
}

/**
 * Whether a step failed and was not allowed to, as the web's "with failed work requests"
 * reads it: a shown leaf step ended `failure` or `temporary failure`, without the
 * workflow's `allow_failure`.
 */
export function hasFailedSteps(steps: readonly StepFields[]): boolean {
  return leaves(steps).some(
    (s) =>
      visible(s) &&
      workflowDataField(s, 'allow_failure') !== true &&
      (s.result === 'failure' || s.result === 'temporary failure'),
  );
}

/** The order step counts are said in: what is done first, what has not started last. */
const COUNT_ORDER = ['completed', 'running', 'pending', 'blocked', 'aborted'] as const;

/**
 * How many shown leaf steps are in each status, in COUNT_ORDER, leaving out those with
 * none; a status the app does not know is counted as `other`, so that a server's word
 * never reaches the row.
 */
export function stepCounts(steps: readonly StepFields[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const step of leaves(steps).filter(visible)) {
    const key = isKnownStatus(step.status) ? step.status : 'other';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...COUNT_ORDER, 'other']
    .map((status): [string, number] => [status, counts.get(status) ?? 0])
    .filter(([, n]) => n > 0);
}

/** "3 completed · 1 running · 2 pending"; "no steps" when it has none. */
export function stepCountsText(counts: readonly [string, number][]): string {
  if (counts.length === 0) return 'no steps';
  return counts.map(([status, n]) => `${String(n)} ${status}`).join(' · ');
}

/**
 * The last activity of a workflow: the newest time any of its steps started or ended, or,
 * with none, the root's own; null when no time can be read.
 */
export function lastActivity(root: StepFields, steps: readonly StepFields[]): string | null {
  const times = (wrs: readonly StepFields[]): string[] =>
    wrs.flatMap((s) => [s.started_at, s.completed_at]).filter((t): t is string => t !== null);
  const fromSteps = times(steps.filter((s) => s.id !== root.id));
  const candidates = fromSteps.length > 0 ? fromSteps : times([root]);
  let newest: { iso: string; at: number } | null = null;
  for (const iso of candidates) {
    const at = Date.parse(iso);
    if (Number.isNaN(at)) continue;
    if (newest === null || at > newest.at) newest = { iso, at };
  }
  return newest?.iso ?? null;
}

/** How many facets are in use. */
export function activeWorkflowFilterCount(filters: WorkflowFilters): number {
  return (Object.keys(NO_WORKFLOW_FILTERS) as (keyof WorkflowFilters)[]).filter(
    (key) => filters[key] !== NO_WORKFLOW_FILTERS[key],
  ).length;
}

/** The status a chosen runtime status implies, or the chosen status: what the server filters. */
export function serverStatus(filters: WorkflowFilters): string | undefined {
  if (isRuntimeStatus(filters.runtimeStatus)) return 'running';
  return isKnownStatus(filters.status) ? filters.status : undefined;
}

/** Choosing a status other than running drops the runtime status (only running ones have one). */
export function withStatus(filters: WorkflowFilters, status: string): WorkflowFilters {
  return { ...filters, status, runtimeStatus: status === 'running' ? filters.runtimeStatus : '' };
}

/** Choosing a runtime status chooses `running` as the status too. */
export function withRuntimeStatus(filters: WorkflowFilters, runtime: string): WorkflowFilters {
  return { ...filters, runtimeStatus: runtime, status: runtime ? 'running' : filters.status };
}

/** Whether a facet in use needs the workflows' steps (the roots alone cannot tell it). */
function needsSteps(filters: WorkflowFilters): boolean {
  return filters.runtimeStatus !== '' || filters.withFailed;
}

/** Whether a facet in use is told by the app over the loaded rows, not by the server. */
export function filtersInApp(filters: WorkflowFilters): boolean {
  return (
    filters.result !== '' ||
    filters.template !== '' ||
    filters.startedBy !== '' ||
    needsSteps(filters)
  );
}

export type Match = 'yes' | 'no' | 'unknown';

/**
 * Whether a root workflow matches the facets. `creator`: its creator's username, where the
 * server named it. `steps`: all its steps, or undefined while they are not read (or were
 * not all found): a facet that needs them is then `unknown`, never guessed.
 */
export function matchWorkflow(
  root: StepFields,
  filters: WorkflowFilters,
  creator: string | undefined,
  steps: readonly StepFields[] | undefined,
): Match {
  const status = serverStatus(filters);
  if (status !== undefined && root.status !== status) return 'no';
  if (filters.result && root.result !== filters.result) return 'no';
  if (filters.template && templateName(root) !== filters.template) return 'no';
  if (filters.startedBy && creator !== filters.startedBy) return 'no';
  if (!needsSteps(filters)) return 'yes';
  if (steps === undefined) return 'unknown';
  if (filters.runtimeStatus && runtimeStatus(steps) !== filters.runtimeStatus) return 'no';
  if (filters.withFailed && !hasFailedSteps(steps)) return 'no';
  return 'yes';
}

/**
 * The web's query string for these facets (without the "?"), in the web's own names and
 * values: a runtime status is the web's `running__<runtime status>` status, a running
 * status with none `running__any`. A status, runtime status or result the app does not
 * know is left out (the web would refuse it); names are encoded, whatever they hold.
 */
export function webQueryString(filters: WorkflowFilters): string {
  const query = new URLSearchParams();
  if (isRuntimeStatus(filters.runtimeStatus)) {
    query.append(WEB_PARAMS.statuses, `running__${filters.runtimeStatus}`);
  } else if (filters.status === 'running') {
    query.append(WEB_PARAMS.statuses, 'running__any');
  } else if (isKnownStatus(filters.status)) {
    query.append(WEB_PARAMS.statuses, filters.status);
  }
  if (isKnownResult(filters.result)) query.append(WEB_PARAMS.results, filters.result);
  const template = boundedName(filters.template);
  if (template !== null) query.append(WEB_PARAMS.workflowTemplates, template);
  const startedBy = boundedName(filters.startedBy);
  if (startedBy !== null) query.append(WEB_PARAMS.startedBy, startedBy);
  if (filters.withFailed) query.append(WEB_PARAMS.withFailed, '1');
  return query.toString();
}

/** The web UI's workflow list of a workspace, with these facets: a path on its server. */
export function workflowListWebPath(
  scope: string,
  workspace: string,
  filters: WorkflowFilters,
): string {
  const query = webQueryString(filters);
  const path = `/${encodeURIComponent(scope)}/${encodeURIComponent(workspace)}/workflow/`;
  return query ? `${path}?${query}` : path;
}
