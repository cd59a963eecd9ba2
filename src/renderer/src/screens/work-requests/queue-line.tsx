/**
 * On the page of a step that has not ended: where it stands in the server's queue and how
 * long such steps usually take (main reads the server's own numbers). A pending step says
 * its place and its usual wait; a running one, its time against the last success like it,
 * with a bar that never reaches its end while the step runs on. A running workflow says when
 * it is expected to end, by the last success of the same workflow for the same package.
 */
import { Clock, Hourglass, type LucideIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import {
  positionText,
  runProgress,
  spokenDuration,
  usualRunText,
  usualStartText,
  workflowFinishText,
} from '@shared/results/queue';
import { useServerQuery } from '@renderer/queries/hooks';
import { queueQueries } from '@renderer/queries/queue';

/** The running step's clock: its elapsed time moves on between the server's answers. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1_000);
    return () => {
      clearInterval(timer);
    };
  }, [active]);
  return now;
}

/** The line's frame: a region named for what it says, its icon, and its sentences. */
function QueueSection(props: {
  label: string;
  icon: LucideIcon;
  children: React.ReactNode;
}): React.JSX.Element {
  const Icon = props.icon;
  return (
    <section className="queue-line" aria-label={props.label} data-testid="queue-line">
      <Icon size={16} aria-hidden="true" className="muted" />
      <div>{props.children}</div>
    </section>
  );
}

export function QueueLine(props: { wr: WorkRequestResponse }): React.JSX.Element | null {
  const { wr } = props;
  const root = wr.task_type === 'Workflow' && (wr.parent ?? null) === null;
  const shown =
    (wr.task_type === 'Worker' && (wr.status === 'pending' || wr.status === 'running')) ||
    (root && wr.status === 'running');
  const estimate = useServerQuery((scope) => queueQueries.estimate(scope, wr.id, wr.status), {
    enabled: shown,
  });
  const now = useNow(shown && wr.status === 'running');
  if (!shown || !estimate.data) return null;
  const e = estimate.data;
  const missing =
    e.missing.length > 0 ? (
      <p className="muted queue-missing">Not known: {e.missing.join('; ')}.</p>
    ) : null;
  if (wr.status === 'pending') {
    const place = positionText(e.position);
    const start = usualStartText(e.usualStart, wr.task_name);
    return (
      <QueueSection label="Queue" icon={Hourglass}>
        {place !== null ? <p className="queue-place">{place}.</p> : null}
        {start !== null ? <p>{start}.</p> : null}
        {e.historyAsked ? <p className="muted">{usualRunText(e.usualRun)}.</p> : null}
        {missing}
      </QueueSection>
    );
  }
  const started = wr.started_at === null ? null : Date.parse(wr.started_at);
  if (root) {
    const finish = workflowFinishText(started, e.usualRun, now);
    return (
      <QueueSection label="Expected finish" icon={Clock}>
        <p>
          {finish ??
            (e.historyAsked
              ? 'No earlier success of this workflow for this package here to say when it ends'
              : 'When it ends cannot be said yet: the workflow does not name its package')}
          .
        </p>
        {missing}
      </QueueSection>
    );
  }
  const progress = runProgress(started, e.usualRun, now);
  return (
    <QueueSection label="Queue" icon={Clock}>
      <p>
        Running for {spokenDuration(progress.elapsed)}
        {progress.kind === 'usual'
          ? progress.overdue
            ? `: longer than the last success (${spokenDuration(progress.usual.seconds)})`
            : ` of about ${spokenDuration(progress.usual.seconds)} (the last success)`
          : ''}
        .
      </p>
      {progress.kind === 'usual' ? (
        <progress
          value={progress.fraction}
          max={1}
          aria-label="Against the last success"
          aria-valuetext={
            progress.overdue ? 'overdue' : `${String(Math.round(progress.fraction * 100))}%`
          }
        />
      ) : e.historyAsked ? (
        <p className="muted">{usualRunText(e.usualRun)}.</p>
      ) : null}
      {missing}
    </QueueSection>
  );
}
