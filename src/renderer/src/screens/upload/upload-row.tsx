import {
  Ban,
  CircleCheck,
  CircleX,
  Clock,
  LoaderCircle,
  Pause,
  Play,
  RotateCcw,
  X,
  type LucideIcon,
} from 'lucide-react';
import type { TransferState, UploadJob } from '@shared/contract';
import { visibleText } from '@shared/visible-text';
import { formatBytes, formatDuration } from '@renderer/components/format';
import { TimeAgo } from '@renderer/components/time-ago';

const LOOK: Record<TransferState, { label: string; icon: LucideIcon; tone: string }> = {
  queued: { label: 'Queued', icon: Clock, tone: 'muted' },
  running: { label: 'Uploading', icon: LoaderCircle, tone: 'accent' },
  paused: { label: 'Paused', icon: Pause, tone: 'attention' },
  completed: { label: 'Uploaded', icon: CircleCheck, tone: 'success' },
  failed: { label: 'Failed', icon: CircleX, tone: 'danger' },
  cancelled: { label: 'Cancelled', icon: Ban, tone: 'muted' },
};

type Action = 'pause' | 'resume' | 'cancel' | 'retry';

/** One upload: state, total and per-file progress, speed, time left, and its actions. */
export function UploadRow(props: {
  job: UploadJob;
  busy: boolean;
  startedHere: boolean;
  onAction: (action: Action) => void;
  /** Opens its artifact; absent while another server than the job's is active. */
  onOpen?: ((artifactId: number) => void) | undefined;
  /** Opens the workflow the job started; absent when the job is another server's. */
  onOpenWorkflow?: ((id: number) => void) | undefined;
}): React.JSX.Element {
  const { job } = props;
  const label = visibleText(job.label);
  const look = LOOK[job.state];
  const Icon = look.icon;
  const percent = job.totalBytes > 0 ? Math.floor((job.sentBytes / job.totalBytes) * 100) : 100;
  const live = job.state === 'running' || job.state === 'queued';
  const button = (action: Action, verb: string, ActionIcon: LucideIcon) => (
    <button
      type="button"
      className="button small"
      disabled={props.busy}
      aria-label={`${verb} ${label}`}
      onClick={() => {
        props.onAction(action);
      }}
    >
      <ActionIcon size={13} aria-hidden="true" />
      {verb}
    </button>
  );
  return (
    <li className="upload-row" data-testid="upload-row" data-state={job.state}>
      <div className="upload-row-main">
        <span className={`status-badge tone-${look.tone}`}>
          <Icon size={14} aria-hidden="true" className={job.state === 'running' ? 'spin' : ''} />
          <span>{look.label}</span>
        </span>
        <span className="mono upload-label" title={label}>
          {label}
        </span>
        <span className="mono muted">{job.category}</span>
        <span className="muted">
          in <span className="mono">{job.workspace}</span>
        </span>
        {job.resumed ? <span className="tag">resumed after restart</span> : null}
        <span className="upload-row-spacer" />
        {job.state === 'running' || job.state === 'queued' ? button('pause', 'Pause', Pause) : null}
        {job.state === 'paused' ? button('resume', 'Resume', Play) : null}
        {job.state === 'failed' && job.retryable ? button('retry', 'Retry', RotateCcw) : null}
        {live || job.state === 'paused' || job.state === 'failed'
          ? button('cancel', 'Cancel', X)
          : null}
        {job.workflow?.workRequestId != null && props.onOpenWorkflow ? (
          <button
            type="button"
            className="button small primary"
            data-testid="upload-open-workflow"
            onClick={() => {
              const id = job.workflow?.workRequestId;
              if (id != null) props.onOpenWorkflow?.(id);
            }}
          >
            Open {visibleText(job.workflow.template)}{' '}
            <span className="mono">#{job.workflow.workRequestId}</span>
          </button>
        ) : null}
        {job.state === 'completed' && job.artifactId !== null && props.onOpen ? (
          <button
            type="button"
            className="button small primary"
            onClick={() => {
              if (job.artifactId !== null) props.onOpen?.(job.artifactId);
            }}
          >
            Open artifact <span className="mono">#{job.artifactId}</span>
          </button>
        ) : null}
      </div>
      {job.parts.length > 1 || job.workflow ? (
        <ul className="upload-parts" aria-label={`What the upload of ${label} makes`}>
          {job.parts.map((part, index) => (
            <li key={`${String(index)}:${part.label}`} data-state={part.state}>
              <span className="mono">{part.category}</span>{' '}
              <span className="muted">
                {part.artifactId === null ? PART_STATE[part.state] : `#${String(part.artifactId)}`}
              </span>
            </li>
          ))}
          {job.relations.total > 0 ? (
            <li className="muted">
              relations {job.relations.made}/{job.relations.total}
            </li>
          ) : null}
          {job.workflow ? (
            <li data-testid="upload-workflow">
              {job.workflow.workRequestId === null ? 'then starts' : 'started'}{' '}
              <span className="mono">{visibleText(job.workflow.template)}</span>
              <span className="muted"> in {visibleText(job.workflow.workspace)}</span>
              {job.workflow.suite !== null ? (
                <span className="muted">
                  {' '}
                  · told when {visibleText(job.workflow.suite)} publishes it
                </span>
              ) : null}
            </li>
          ) : null}
        </ul>
      ) : null}
      <div className="upload-progress">
        <progress
          value={job.sentBytes}
          max={Math.max(job.totalBytes, 1)}
          aria-label={`Upload of ${label}`}
          aria-valuetext={`${String(percent)}%`}
        />
        <span className="mono progress-figures" data-testid="upload-progress">
          {formatBytes(job.sentBytes)} / {formatBytes(job.totalBytes)} · {percent}%
        </span>
        {job.state === 'running' ? (
          <span className="muted progress-figures">
            {formatBytes(job.speed)}/s ·{' '}
            {job.eta === null ? 'estimating…' : `${formatDuration(job.eta)} left`}
          </span>
        ) : (
          <span className="muted progress-figures">
            started <TimeAgo iso={job.createdAt} />
          </span>
        )}
      </div>
      {job.error ? (
        <p className="upload-error tone-danger" role="alert">
          {job.error.message}
          {job.state !== 'failed'
            ? ''
            : job.retryable
              ? ' Retry continues from what the server already has.'
              : ' Retrying would fail the same way: start a new upload from the files as they are now.'}
        </p>
      ) : null}
      {job.state === 'failed' && !job.retryable ? <LeftOnServer job={job} /> : null}
      {job.files.length > 0 ? (
        <details className="upload-files" open={props.startedHere && live}>
          <summary>
            {job.files.length} {job.files.length === 1 ? 'file' : 'files'}
          </summary>
          <table className="table compact" aria-label={`Files of ${label}`}>
            <tbody>
              {job.files.map((file) => (
                <tr key={file.path}>
                  <td className="mono">{visibleText(file.path)}</td>
                  <td className="file-progress">
                    <progress
                      value={file.sentBytes}
                      max={Math.max(file.totalBytes, 1)}
                      aria-label={`Upload of ${visibleText(file.path)}`}
                    />
                  </td>
                  <td className="mono num">
                    {formatBytes(file.sentBytes)} / {formatBytes(file.totalBytes)}
                  </td>
                  <td className="muted">{FILE_STATE[file.state]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </li>
  );
}

const PART_STATE: Record<UploadJob['parts'][number]['state'], string> = {
  waiting: 'waiting',
  sending: 'sending',
  done: 'done',
};

const FILE_STATE: Record<UploadJob['files'][number]['state'], string> = {
  pending: 'Waiting',
  active: 'Sending',
  done: 'Sent',
  skipped: 'Already on the server',
  failed: 'Failed',
};

/**
 * What a job that cannot go on left on the server, each artifact with whether it is
 * complete: Debusine has no request that deletes an artifact, so the user is told what is
 * there rather than offered a clean-up the server does not allow.
 */
function LeftOnServer(props: { job: UploadJob }): React.JSX.Element | null {
  const made = props.job.parts.filter((p) => p.artifactId !== null);
  if (made.length === 0) {
    return <p className="muted">Nothing was created on the server.</p>;
  }
  return (
    <div className="upload-left" data-testid="upload-left-on-server">
      <p className="muted">Left on the server (Debusine offers no way to delete an artifact):</p>
      <ul>
        {made.map((part) => (
          <li key={part.artifactId}>
            <span className="mono">#{part.artifactId}</span>{' '}
            <span className="mono">{part.category}</span>{' '}
            <span className="mono muted">{visibleText(part.label)}</span>{' '}
            {part.missing.length > 0
              ? `incomplete: the server waits for ${part.missing.map((m) => visibleText(m)).join(', ')}`
              : part.state === 'done'
                ? 'complete'
                : 'incomplete'}
          </li>
        ))}
      </ul>
    </div>
  );
}
