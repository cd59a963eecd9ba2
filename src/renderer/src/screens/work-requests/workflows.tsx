import { GitBranch } from 'lucide-react';
import { useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatDuration } from '@renderer/components/format';
import { LoadingState } from '@renderer/components/loading-state';
import { TimeAgo } from '@renderer/components/time-ago';
import { FailureLine } from './failure-line';
import { endedUnsuccessfully } from '@shared/results/end';
import { useLiveRows, useWorkRequestPages } from '@renderer/queries/work-requests';
import { NodeLead, WorkflowSteps } from './workflow-tree';

/** Nothing to do when a row is refreshed: the rows here do not flash. */
function ignore(): void {
  // The list of all work requests flashes a refreshed row; this one needs no more than the row.
}

/**
 * Root workflows, newest first; each opens into its tree of steps. Its rows are kept live
 * as the list of all work requests is (an open tree also writes in its root as it reads it).
 */
export function WorkflowList(): React.JSX.Element {
  const query = useWorkRequestPages({ taskType: 'Workflow', rootOnly: true });
  useLiveRows(ignore);
  if (query.isPending) return <LoadingState label="Loading workflows…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const roots = query.data.pages.flatMap((p) => p.items);
  if (roots.length === 0) {
    return (
      <EmptyState icon={GitBranch} title="No workflows yet">
        Workflows started in this scope appear here with their steps.
      </EmptyState>
    );
  }
  return (
    <div className="wr-tree" data-testid="workflow-list">
      <ul className="wr-tree-list" aria-label="Workflows">
        {roots.map((root, index) => (
          <WorkflowRoot
            key={root.id}
            root={root}
            initiallyOpen={index === 0 || endedUnsuccessfully(root)}
          />
        ))}
      </ul>
      {query.hasNextPage ? (
        <div className="wr-footer">
          <span>{roots.length} workflows loaded</span>
          <button
            type="button"
            className="button small"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage({ cancelRefetch: false })}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      ) : null}
    </div>
  );
}

function WorkflowRoot(props: {
  root: WorkRequestResponse;
  initiallyOpen: boolean;
}): React.JSX.Element {
  const { root } = props;
  const [open, setOpen] = useState(props.initiallyOpen);
  return (
    <li data-testid={`workflow-${String(root.id)}`}>
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
          <span className="wr-type">{root.workspace}</span> <FailureLine wr={root} where />
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
