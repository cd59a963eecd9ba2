import { GitBranch } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatDuration } from '@renderer/components/format';
import { LoadingState } from '@renderer/components/loading-state';
import { TimeAgo } from '@renderer/components/time-ago';
import { FailureLine } from './failure-line';
import { endedUnsuccessfully } from '@shared/results/end';
import {
  boundedName,
  filtersInApp,
  lastActivity,
  matchWorkflow,
  serverStatus,
  stepCounts,
  stepCountsText,
  templateName,
  type Match,
} from '@shared/results/workflow-list';
import {
  useLiveRows,
  useWorkflowStepsOf,
  useWorkRequestPages,
} from '@renderer/queries/work-requests';
import type { WorkflowStepsData } from '@renderer/queries/workflow-steps';
import { creatorName } from './model';
import { useViewsStore } from './views-store';
import { WorkflowFiltersBar } from './workflow-filters';
import { NodeLead, WorkflowSteps } from './workflow-tree';

/** Nothing to do when a row is refreshed: the rows here do not flash. */
function ignore(): void {
  // The list of all work requests flashes a refreshed row; this one needs no more than the row.
}

/** What a row knows of its steps: all of them once read whole, else nothing. */
function fullSteps(data: WorkflowStepsData | undefined): WorkRequestResponse[] | undefined {
  // A tree whose read stopped before reaching its root may lack steps: counting it would
  // be a guess, so it counts as not read.
  return data?.complete ? data.steps : undefined;
}

/**
 * Root workflows, newest first, with the web UI's facets; each opens into its tree of
 * steps. The status is filtered by the server; the other facets are told here, over the
 * loaded pages (the server has no such filters), and the footer says so. A row's step
 * counts and last activity, and the facets that need its steps, come from its tree, read
 * only once the row is on screen. Its rows are kept live as the list of all work requests
 * is (an open tree also writes in its root as it reads it).
 */
export function WorkflowList(): React.JSX.Element {
  const filters = useViewsStore((s) => s.workflowFilters);
  const status = serverStatus(filters);
  const query = useWorkRequestPages({
    taskType: 'Workflow',
    rootOnly: true,
    ...(status === undefined ? {} : { status }),
  });
  useLiveRows(ignore);
  const roots = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const named = useMemo(
    () => ({
      creators: Object.fromEntries(
        (query.data?.pages ?? []).flatMap((p) => Object.entries(p.creators)),
      ),
    }),
    [query.data],
  );
  const [onScreen, setOnScreen] = useState<ReadonlySet<number>>(new Set());
  const trees = useWorkflowStepsOf(
    roots.map((r) => r.id),
    onScreen,
  );
  const rows = roots.map((root, index) => {
    const tree = trees[index];
    const steps = fullSteps(tree);
    // Read, but its steps were not all found: reading it again will not find them.
    const partial = tree !== undefined && steps === undefined;
    const match = matchWorkflow(root, filters, creatorName(root, named), steps);
    return { root, steps, partial, match };
  });
  const shown = rows.filter((r) => r.match !== 'no');
  const matching = rows.filter((r) => r.match === 'yes').length;
  const unchecked = rows.filter((r) => r.match === 'unknown' && !r.partial).length;
  const uncheckable = rows.filter((r) => r.match === 'unknown' && r.partial).length;
  const templates = useMemo(
    () => [...new Set(roots.map(templateName).filter((t): t is string => t !== null))],
    [roots],
  );
  // As the templates: a name no real user has is not offered.
  const users = useMemo(
    () => [
      ...new Set(
        roots.map((r) => boundedName(creatorName(r, named))).filter((u): u is string => u !== null),
      ),
    ],
    [roots, named],
  );
  const inApp = filtersInApp(filters);
  const filtered = inApp || status !== undefined;
  // A row the server listed under the status may have changed since (rows are kept live
  // in place): it is then told here too, and the footer counts what matches.
  const toldHere = inApp || shown.length < rows.length;
  const onVisible = useCallback((id: number, visible: boolean): void => {
    setOnScreen((before) => {
      if (before.has(id) === visible) return before;
      const next = new Set(before);
      if (visible) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const bar = <WorkflowFiltersBar templates={templates} users={users} />;
  if (query.isPending) {
    return (
      <div className="wr-panel">
        {bar}
        <LoadingState label="Loading workflows…" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="wr-panel">
        {bar}
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  if (roots.length === 0 && !filtered) {
    return (
      <div className="wr-panel">
        {bar}
        <EmptyState icon={GitBranch} title="No workflows yet">
          Workflows started in this scope appear here with their steps.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="wr-panel">
      {bar}
      <div className="wr-tree" data-testid="workflow-list">
        {shown.length === 0 ? (
          <EmptyState icon={GitBranch} title="No workflows match">
            {query.hasNextPage
              ? `None of the ${String(roots.length)} loaded workflows match; load more or change the filters.`
              : 'Change the filters.'}
          </EmptyState>
        ) : (
          <ul className="wr-tree-list" aria-label="Workflows">
            {shown.map((row, index) => (
              <WorkflowRoot
                key={row.root.id}
                root={row.root}
                steps={row.steps}
                partial={row.partial}
                match={row.match}
                initiallyOpen={index === 0 || endedUnsuccessfully(row.root)}
                onVisible={onVisible}
              />
            ))}
          </ul>
        )}
        <div className="wr-footer" role="status" aria-live="polite" data-testid="workflow-footer">
          <span>
            {toldHere
              ? `${String(matching)} of the ${String(roots.length)} loaded workflows match`
              : `${String(roots.length)} workflows loaded`}
            {unchecked > 0
              ? ` · ${String(unchecked)} not checked yet: their steps are read as they come into view`
              : ''}
            {uncheckable > 0
              ? ` · ${String(uncheckable)} cannot be checked: not all their steps were found`
              : ''}
            {query.hasNextPage ? '' : ' · all loaded'}
          </span>
          {query.hasNextPage ? (
            <button
              type="button"
              className="button small"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage({ cancelRefetch: false })}
            >
              {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/**
 * Whether the element is on screen, told to `onVisible`. Where the page cannot tell (no
 * IntersectionObserver), it is taken as on screen: its steps are then read at once.
 * A row a facet hides is unmounted without being told off screen: its tree goes on being
 * read while it runs, so that it comes back when it matches again.
 */
function useOnScreen(
  ref: RefObject<HTMLElement | null>,
  id: number,
  onVisible: (id: number, visible: boolean) => void,
): void {
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    if (typeof IntersectionObserver === 'undefined') {
      onVisible(id, true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) onVisible(id, entry.isIntersecting);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [ref, id, onVisible]);
}

function WorkflowRoot(props: {
  root: WorkRequestResponse;
  /** All its steps, or undefined while they are not read (or were not all found). */
  steps: WorkRequestResponse[] | undefined;
  /** Its tree was read, but not all its steps were found. */
  partial: boolean;
  /** `unknown` while a facet in use needs steps not read yet. */
  match: Match;
  initiallyOpen: boolean;
  onVisible: (id: number, visible: boolean) => void;
}): React.JSX.Element {
  const { root, steps } = props;
  const [open, setOpen] = useState(props.initiallyOpen);
  const ref = useRef<HTMLLIElement>(null);
  useOnScreen(ref, root.id, props.onVisible);
  const template = templateName(root);
  const activity = steps === undefined ? null : lastActivity(root, steps);
  return (
    <li ref={ref} data-testid={`workflow-${String(root.id)}`}>
      <div className="wr-node root">
        <NodeLead
          wr={root}
          open={open}
          toggleLabel={`workflow ${root.task_name} #${String(root.id)}`}
          onToggle={() => {
            setOpen(!open);
          }}
        />
        <span className="wr-grow">
          <span className="wr-task-name">{root.task_name}</span>{' '}
          {template !== null && template !== root.task_name ? (
            <span className="wr-sub">{template} </span>
          ) : null}
          <span className="wr-type">{root.workspace}</span> <FailureLine wr={root} where />
        </span>
        {/* Always there, empty while nothing can be said, so that the rows' columns line up. */}
        <span className="muted wr-sub wr-node-counts">
          {steps !== undefined ? (
            <span data-testid="step-counts">{stepCountsText(stepCounts(steps))}</span>
          ) : props.partial ? (
            <span data-testid="not-checked">steps not all found</span>
          ) : props.match === 'unknown' ? (
            <span data-testid="not-checked">not checked yet</span>
          ) : null}
        </span>
        <span className="muted wr-node-activity">
          {activity === null ? null : (
            <span data-testid="last-activity">
              last active <TimeAgo iso={activity} />
            </span>
          )}
        </span>
        <span className="muted wr-node-time">
          <TimeAgo iso={root.created_at} />
        </span>
        <span className="wr-num wr-node-duration">{formatDuration(root.duration)}</span>
      </div>
      {open ? (
        <div style={{ borderBottom: '1px solid var(--border)' }}>
          <WorkflowSteps root={root} depth={2} />
        </div>
      ) : null}
    </li>
  );
}
