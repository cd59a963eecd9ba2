import { ChevronDown, ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { OpenButton } from '@renderer/kit/open-button';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatDuration } from '@renderer/components/format';
import { LoadingState } from '@renderer/components/loading-state';
import { StatusBadge } from '@renderer/components/status-badge';
import { TimeAgo } from '@renderer/components/time-ago';
import { FailureLine } from './failure-line';
import { failedByItself, hasEnded } from '@shared/results/end';
import { LiveLogButton } from './live-log-button';
import { rootOf, taskSummary } from './model';
import { STEP_SCAN_MAX_PAGES, useWorkflowSteps } from '@renderer/queries/work-requests';

type Children = Map<number, WorkRequestResponse[]>;

function childrenByParent(rootId: number, steps: WorkRequestResponse[]): Children {
  const map: Children = new Map();
  for (const step of [...steps].sort((a, b) => a.id - b.id)) {
    if (step.id === rootId) continue;
    const parent = step.parent ?? rootId;
    const list = map.get(parent) ?? [];
    list.push(step);
    map.set(parent, list);
  }
  return map;
}

/** Whether a step under `id`, at any depth, is one `test` looks for. */
function hasUnder(
  id: number,
  children: Children,
  test: (wr: WorkRequestResponse) => boolean,
  seen = new Set<number>(),
): boolean {
  // Ids only ever point to older work requests, but a cycle must not hang the window.
  if (seen.has(id)) return false;
  seen.add(id);
  return (children.get(id) ?? []).some((c) => test(c) || hasUnder(c.id, children, test, seen));
}

/** A branch starts open where something broke, or where something runs now. */
function startsOpen(wr: WorkRequestResponse): boolean {
  return failedByItself(wr) || wr.status === 'running';
}

/**
 * A workflow's steps as a tree; branches with a failure or a running step, and failed
 * steps, start open. For
 * a sub-workflow, its part of its root's tree: steps name their root, not their parent
 * workflow, so the root's steps are read and the sub-workflow's branch is shown. Live while
 * the root runs (queries/workflow-steps.ts).
 */
export function WorkflowSteps(props: {
  root: WorkRequestResponse;
  /** The depth of the first level of steps (1 on a page, 2 under a root row). */
  depth?: number;
}): React.JSX.Element {
  const rootId = rootOf(props.root) ?? props.root.id;
  const steps = useWorkflowSteps(rootId, true);
  const children = useMemo(
    () => childrenByParent(rootId, steps.data?.steps ?? []),
    [rootId, steps.data],
  );
  if (steps.isPending) return <LoadingState label="Loading steps…" />;
  if (steps.isError) return <ErrorState error={steps.error} onRetry={() => void steps.refetch()} />;
  const top = children.get(props.root.id) ?? [];
  const running = !hasEnded(steps.data.root.status);
  return (
    <div>
      {top.length === 0 ? (
        <p className="muted wr-tree-note" data-testid="no-steps">
          {running
            ? 'No steps yet: the server adds them as the workflow starts; they appear here as it does.'
            : `No steps${steps.data.complete ? '' : ' found among the newest work requests'}.`}
        </p>
      ) : (
        <ul aria-label={`Steps of workflow ${String(props.root.id)}`} className="wr-tree-list">
          {top.map((step) => (
            <StepNode key={step.id} wr={step} depth={props.depth ?? 1} childMap={children} />
          ))}
        </ul>
      )}
      {steps.data.complete ? null : (
        <p className="muted wr-tree-note">
          Only the newest {STEP_SCAN_MAX_PAGES} pages of work requests were searched for steps.
        </p>
      )}
    </div>
  );
}

/**
 * The start of a tree node: its expand toggle (a spacer where it has none), its status and
 * its id, which opens the work request's page.
 */
export function NodeLead(props: {
  wr: WorkRequestResponse;
  open: boolean;
  /** What the toggle's label names ("Expand …", "Collapse …"). */
  toggleLabel: string;
  onToggle: (() => void) | undefined;
}): React.JSX.Element {
  const { wr, open } = props;
  return (
    <>
      {props.onToggle ? (
        <button
          type="button"
          className="wr-toggle"
          aria-expanded={open}
          aria-label={`${open ? 'Collapse' : 'Expand'} ${props.toggleLabel}`}
          onClick={props.onToggle}
        >
          {open ? (
            <ChevronDown size={14} aria-hidden="true" />
          ) : (
            <ChevronRight size={14} aria-hidden="true" />
          )}
        </button>
      ) : (
        <span className="wr-toggle-space" />
      )}
      <span className="wr-node-status">
        <StatusBadge status={wr.status} result={wr.result} />
      </span>
      <OpenButton kind="work-request" id={wr.id} className="link-button wr-id" />
    </>
  );
}

function StepNode(props: {
  wr: WorkRequestResponse;
  depth: number;
  childMap: Children;
}): React.JSX.Element {
  const { wr, depth, childMap } = props;
  // A step is never drawn under itself, however the server links it.
  const kids = (childMap.get(wr.id) ?? []).filter((k) => k.id !== wr.id && depth < 20);
  const failed = failedByItself(wr);
  // Until the user opens or closes it, a branch follows the tree as it changes: it opens
  // when a step under it starts running or fails (steps come and go while the root runs).
  const [chosen, setOpen] = useState<boolean | null>(null);
  const open = chosen ?? (kids.length > 0 ? hasUnder(wr.id, childMap, startsOpen) : failed);
  const summary = taskSummary(wr);
  return (
    <li data-testid={`step-${String(wr.id)}`}>
      <div className="wr-node" style={{ paddingLeft: 10 + (depth - 1) * 20 }}>
        <NodeLead
          wr={wr}
          open={open}
          toggleLabel={`${wr.task_name} #${String(wr.id)}`}
          onToggle={
            kids.length > 0 || failed
              ? () => {
                  setOpen(!open);
                }
              : undefined
          }
        />
        <span className="wr-grow">
          <span className="wr-task-name">{wr.task_name}</span>{' '}
          <span className="wr-type">{wr.task_type}</span>{' '}
          {summary ? <span className="wr-sub">{summary}</span> : null}
        </span>
        <LiveLogButton wr={wr} small />
        <span className="wr-num wr-node-duration">{formatDuration(wr.duration)}</span>
      </div>
      {failed && kids.length === 0 ? (
        <div className="wr-node-reason" style={{ paddingLeft: 40 + (depth - 1) * 20 }}>
          <FailureLine wr={wr} />
        </div>
      ) : null}
      {open && kids.length > 0 ? (
        <ul>
          {kids.map((k) => (
            <StepNode key={k.id} wr={k} depth={depth + 1} childMap={childMap} />
          ))}
        </ul>
      ) : null}
      {open && kids.length === 0 && failed ? (
        <div className="wr-node-detail" style={{ paddingLeft: 40 + (depth - 1) * 20 }}>
          <dl>
            <dt>Result</dt>
            <dd>{wr.result}</dd>
            <dt>Completed</dt>
            <dd>
              <TimeAgo iso={wr.completed_at} />
            </dd>
            <dt>Worker</dt>
            <dd className="mono">{wr.worker ?? '—'}</dd>
            <dt>Artifacts</dt>
            <dd className="mono">
              {wr.artifacts.length ? wr.artifacts.map((a) => `#${String(a)}`).join(' ') : '—'}
            </dd>
          </dl>
          <OpenButton kind="work-request" id={wr.id} className="button small">
            Open step #{wr.id}
          </OpenButton>
        </div>
      ) : null}
    </li>
  );
}
