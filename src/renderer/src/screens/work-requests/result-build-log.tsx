import { FileText } from 'lucide-react';
import type { ArtifactResponse, WorkRequestResponse } from '@shared/contract';
import { lineNumber } from '@shared/results/failure';
import { formatDuration } from '@renderer/components/format';
import { StatusBadge } from '@renderer/components/status-badge';
import { useFailureReason } from '@renderer/queries/results';
import { failedByItself } from '@shared/results/end';
import { useOpen } from '@renderer/kit/navigation';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** The .build file of a build log artifact: the one its data names, else the first listed. */
export function buildLogPath(artifact: ArtifactResponse): string | null {
  const named = text(artifact.data.filename);
  const files = Object.keys(artifact.files);
  if (named !== null && files.includes(named)) return named;
  return files.find((f) => f.endsWith('.build')) ?? files[0] ?? null;
}

/** A build log: how the build went, the line where it broke, and the log opened there. */
export function BuildLogResult(props: {
  wr: WorkRequestResponse;
  artifact: ArtifactResponse;
}): React.JSX.Element {
  const { wr, artifact } = props;
  const failed = failedByItself(wr);
  const reason = useFailureReason(wr.id, failed);
  const { openLog } = useOpen();
  const path = buildLogPath(artifact);
  const at = reason.data?.log?.artifactId === artifact.id ? reason.data.log : null;
  const source = [text(artifact.data.source), text(artifact.data.version)]
    .filter((x) => x !== null)
    .join(' ');
  return (
    <div className="result-build-log" data-testid={`build-log-${String(artifact.id)}`}>
      <dl className="wr-props">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={wr.status} result={wr.result} />
        </dd>
        {source ? (
          <>
            <dt>Source</dt>
            <dd className="mono">
              {source}
              {text(artifact.data.architecture) ? ` (${String(artifact.data.architecture)})` : ''}
            </dd>
          </>
        ) : null}
        <dt>Duration</dt>
        <dd>{formatDuration(wr.duration)}</dd>
        {reason.data ? (
          <>
            <dt>Failed at</dt>
            <dd className="mono result-error-line" data-testid="build-log-error">
              {reason.data.why}
            </dd>
          </>
        ) : null}
      </dl>
      {path !== null ? (
        <button
          type="button"
          className="button"
          onClick={() => {
            openLog({
              artifactId: artifact.id,
              path: at?.path ?? path,
              line: at?.line ?? null,
              workRequestId: wr.id,
            });
          }}
        >
          <FileText size={14} aria-hidden="true" />
          {at ? `Open log at line ${String(lineNumber(at.line))}` : 'Open log'}
        </button>
      ) : (
        <p className="muted">This build log artifact lists no file.</p>
      )}
    </div>
  );
}
