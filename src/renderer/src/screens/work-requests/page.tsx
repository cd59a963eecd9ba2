import { ArrowLeft, GitBranch } from 'lucide-react';
import type { WorkRequestResponse } from '@shared/contract';
import { OpenButton } from '@renderer/kit/open-button';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatDateTime, formatDuration } from '@renderer/components/format';
import { JsonView } from '@renderer/components/json-view';
import { LoadingState } from '@renderer/components/loading-state';
import { StatusBadge } from '@renderer/components/status-badge';
import { TimeAgo } from '@renderer/components/time-ago';
import { useWhoami } from '@renderer/queries/session';
import { useUiStore } from '@renderer/state/ui-store';
import { WorkRequestActions } from './actions';
import { isMine, rootOf } from './model';
import { useUserNames, useWorkRequest } from '@renderer/queries/work-requests';
import { FailureLine } from './failure-line';
import { QueueLine } from './queue-line';
import { WaitingStep } from './waiting';
import { WorkRequestResults } from './results';
import { WorkflowSteps } from './workflow-tree';
import { WorkflowSummary } from './workflow-summary';

/** A work request's page: what it is, where it stands, what came out, what can be done. */
export function WorkRequestPage(props: { id: number }): React.JSX.Element {
  const query = useWorkRequest(props.id);
  const navigate = useUiStore((s) => s.navigate);
  const back = (
    <nav className="wr-breadcrumb" aria-label="Breadcrumb">
      <button
        type="button"
        className="link-button"
        onClick={() => {
          navigate('work-requests');
        }}
      >
        <ArrowLeft size={14} aria-hidden="true" />
        Work requests
      </button>
      <span className="muted" aria-hidden="true">
        /
      </span>
      {query.data && rootOf(query.data) ? (
        <>
          <WorkRequestLink id={rootOf(query.data) ?? 0} label="Workflow" />
          <span className="muted" aria-hidden="true">
            /
          </span>
        </>
      ) : null}
      <span className="mono" aria-current="page">
        #{props.id}
      </span>
    </nav>
  );
  if (query.isPending) {
    return (
      <div className="wr-page">
        {back}
        <LoadingState label={`Loading work request ${String(props.id)}…`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="wr-page">
        {back}
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  const wr = query.data;
  return (
    <article className="wr-page" aria-labelledby="wr-page-title" data-testid="work-request-page">
      {back}
      <header className="wr-page-head">
        <h2 id="wr-page-title">{wr.task_name}</h2>
        <span className="mono">#{wr.id}</span>
        <span className="wr-type">{wr.task_type}</span>
        <span data-testid="wr-page-status">
          <StatusBadge status={wr.status} result={wr.result} />
        </span>
      </header>
      {wr.task_type === 'Workflow' ? (
        <p className="wr-page-reason">
          <FailureLine wr={wr} where />
        </p>
      ) : null}
      <WorkRequestActions wr={wr} />
      <WaitingStep wr={wr} />
      <QueueLine wr={wr} />
      <div className="wr-grid">
        <div>
          {wr.task_type === 'Workflow' ? (
            <section className="wr-section" aria-labelledby="wr-steps-title">
              <h3 id="wr-steps-title">
                <GitBranch size={13} aria-hidden="true" />
                Steps
              </h3>
              <div className="wr-steps">
                <WorkflowSteps root={wr} />
              </div>
            </section>
          ) : null}
          {wr.task_type === 'Workflow' ? (
            // A workflow makes nothing itself: its results are its steps'.
            <section className="wr-section" aria-labelledby="wr-results-title">
              <h3 id="wr-results-title">Results of its steps</h3>
              <WorkflowSummary root={wr} />
              {wr.artifacts.length > 0 ? <WorkRequestResults wr={wr} /> : null}
            </section>
          ) : (
            <section className="wr-section" aria-labelledby="wr-results-title">
              <h3 id="wr-results-title">Results ({wr.artifacts.length})</h3>
              <WorkRequestResults wr={wr} />
            </section>
          )}
          <details className="wr-section wr-data">
            <summary>Data</summary>
            <section className="wr-section" aria-labelledby="wr-task-data-title">
              <h3 id="wr-task-data-title">Task data</h3>
              <JsonView value={wr.task_data} label="Task data" />
            </section>
            <section className="wr-section" aria-labelledby="wr-dynamic-title">
              <h3 id="wr-dynamic-title">Dynamic task data</h3>
              {wr.dynamic_task_data && Object.keys(wr.dynamic_task_data).length > 0 ? (
                <JsonView value={wr.dynamic_task_data} label="Dynamic task data" />
              ) : (
                <p className="muted">None computed yet.</p>
              )}
            </section>
            {Object.keys(wr.workflow_data ?? {}).length > 0 ? (
              <section className="wr-section" aria-labelledby="wr-workflow-data-title">
                <h3 id="wr-workflow-data-title">Workflow data</h3>
                <JsonView value={wr.workflow_data} label="Workflow data" />
              </section>
            ) : null}
          </details>
        </div>
        <div>
          <section className="wr-section" aria-labelledby="wr-props-title">
            <h3 id="wr-props-title">Details</h3>
            <Properties wr={wr} />
          </section>
        </div>
      </div>
    </article>
  );
}

function WorkRequestLink(props: { id: number; label?: string }): React.JSX.Element {
  return (
    <OpenButton kind="work-request" id={props.id} className="link-button">
      {props.label ? `${props.label} ` : ''}
      <span className="mono">#{props.id}</span>
    </OpenButton>
  );
}

function Properties(props: { wr: WorkRequestResponse }): React.JSX.Element {
  const { wr } = props;
  const effective = wr.priority_base + wr.priority_adjustment;
  const names = useUserNames([wr.created_by]);
  const session = useWhoami();
  const creator =
    typeof wr.created_by === 'number' ? names.data?.[String(wr.created_by)] : undefined;
  const mine = session.data
    ? isMine(wr, {
        username: session.data.user,
        userId: session.data.userId,
        creators: names.data ?? {},
      })
    : false;
  return (
    <dl className="wr-props">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={wr.status} result={wr.result} />
      </dd>
      <dt>Result</dt>
      <dd>
        {wr.result || (
          // An aborted work request never gets one: "yet" would say it still might.
          <span className="muted">{wr.status === 'aborted' ? 'none (aborted)' : 'none yet'}</span>
        )}
      </dd>
      <dt>Workspace</dt>
      <dd>
        {wr.scope ? <span className="muted">{wr.scope}/</span> : null}
        {wr.workspace}
      </dd>
      <dt>Created</dt>
      <dd title={formatDateTime(wr.created_at)}>
        <TimeAgo iso={wr.created_at} />
      </dd>
      <dt>Created by</dt>
      <dd data-testid="wr-creator">
        {creator ?? (mine ? session.data?.user : null) ?? (
          <span className="muted">
            {typeof wr.created_by === 'number' ? `user #${String(wr.created_by)}` : '—'}
          </span>
        )}
        {mine ? <span className="muted"> (you)</span> : null}
      </dd>
      <dt>Started</dt>
      <dd>
        <TimeAgo iso={wr.started_at} />
      </dd>
      <dt>Completed</dt>
      <dd>
        <TimeAgo iso={wr.completed_at} />
      </dd>
      <dt>Duration</dt>
      <dd>{formatDuration(wr.duration)}</dd>
      <dt>Worker</dt>
      <dd className="mono">{wr.worker ?? '—'}</dd>
      <dt>Priority</dt>
      <dd data-testid="wr-priority">
        <span className="mono">{effective}</span>{' '}
        <span className="muted">
          (base {wr.priority_base}, adjustment {wr.priority_adjustment > 0 ? '+' : ''}
          {wr.priority_adjustment})
        </span>
      </dd>
      {wr.parent ? (
        <>
          <dt>Parent</dt>
          <dd>
            <WorkRequestLink id={wr.parent} />
          </dd>
        </>
      ) : null}
      {rootOf(wr) ? (
        <>
          <dt>Workflow</dt>
          <dd>
            <WorkRequestLink id={rootOf(wr) ?? 0} />
          </dd>
        </>
      ) : null}
    </dl>
  );
}
