import type { WorkRequestResponse } from '@shared/contract';
import { lineNumber } from '@shared/results/failure';
import { useFailureReason } from '@renderer/queries/results';
import { endedUnsuccessfully, failedByItself } from '@shared/results/end';
import { useOpen } from '@renderer/kit/navigation';

/**
 * Why a failed step (or workflow) failed, in one line; clicking it opens the log at the
 * line that shows it. Asked of main only for failed work requests, and cached per server.
 * `where` prefixes the step that broke ("sbuild amd64 — build — make: … Error 2"), for a
 * workflow's row, where the step is not otherwise named; an aborted workflow's line says
 * first that it was aborted after that step failed (the server aborts a workflow whose
 * step failed, with no result of its own to say so).
 */
export function FailureLine(props: {
  wr: WorkRequestResponse;
  where?: boolean;
}): React.JSX.Element | null {
  const { wr } = props;
  // A workflow whose step failed ends aborted: its reason is that step's. A task that was
  // aborted did not run to a failure of its own, and has none.
  const reason = useFailureReason(
    wr.id,
    wr.task_type === 'Workflow' ? endedUnsuccessfully(wr) : failedByItself(wr),
  );
  const { openLog } = useOpen();
  if (!reason.data) return null;
  const { what, why, log } = reason.data;
  const text = props.where ? `${what} — ${why.replace(/: /, ' — ')}` : why;
  const step = reason.data.workRequestId;
  const lead =
    props.where && wr.status === 'aborted' && step !== wr.id ? (
      <span className="muted">Aborted after step #{step} failed: </span>
    ) : null;
  if (!log) {
    return (
      <>
        {lead}
        <span className="wr-step-reason" data-testid={`failure-${String(wr.id)}`}>
          {text}
        </span>
      </>
    );
  }
  return (
    <>
      {lead}
      <button
        type="button"
        className="link-button wr-step-reason"
        data-testid={`failure-${String(wr.id)}`}
        title={`Open ${log.path} at line ${String(lineNumber(log.line))}`}
        onClick={() => {
          openLog({ ...log, workRequestId: reason.data?.workRequestId ?? wr.id });
        }}
      >
        {text}
      </button>
    </>
  );
}
