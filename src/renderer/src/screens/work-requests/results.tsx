import type { ArtifactResponse, WorkRequestResponse } from '@shared/contract';
import { groupResults, type ResultGroup, type ResultKind } from '@shared/results/categories';
import { failedByItself } from '@shared/results/end';
import { lintianSummary } from '@shared/results/lintian';
import { PACKAGE_UPLOAD_TASK } from '@shared/results/upload';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useResultArtifacts } from '@renderer/queries/results';
import { BuildLogResult } from './result-build-log';
import { AutopkgtestResult, FilesResult } from './result-files';
import { LintianChips, LintianResult } from './result-lintian';
import { BinaryPackagesResult } from './result-packages';

/**
 * Artifacts read for one step in a workflow's summary, at most: a task makes a handful,
 * and a step that lists more is not read past them (its own page reads them all).
 */
export const SUMMARY_ARTIFACTS_MAX = 20;

/**
 * The kinds a workflow's summary shows of a step: what a developer reads first. The rest
 * (the upload, signing input, source package, debug symbols…) is on the step's page.
 */
const SUMMARY_KINDS = new Set<ResultKind>([
  'build-log',
  'binary-packages',
  'lintian',
  'autopkgtest',
  'piuparts',
  'blhc',
]);

/**
 * What a work request produced, by kind, each kind in the view that reads it best.
 * `summary`: as one step of a workflow's summary: the kinds read first, lintian as its
 * counts, and the rest named, to be read on the step's page.
 */
export function WorkRequestResults(props: {
  wr: WorkRequestResponse;
  summary?: boolean;
}): React.JSX.Element {
  const { wr, summary = false } = props;
  const ids = summary ? wr.artifacts.slice(0, SUMMARY_ARTIFACTS_MAX) : wr.artifacts;
  const artifacts = useResultArtifacts(wr.id, ids);
  if (wr.artifacts.length === 0) return <p className="muted">None created.</p>;
  if (artifacts.isPending) return <LoadingState label="Loading the results…" />;
  if (artifacts.isError) {
    return <ErrorState error={artifacts.error} onRetry={() => void artifacts.refetch()} />;
  }
  const groups = groupResults(artifacts.data);
  const shown = summary ? groups.filter((g) => inSummary(g.kind, wr)) : groups;
  const elsewhere = groups.filter((g) => !shown.includes(g)).map((g) => g.label);
  const unread = wr.artifacts.length - ids.length;
  return (
    <div className="wr-results">
      {shown.map((group) => (
        <section
          key={group.kind}
          className="wr-result-group"
          aria-label={group.label}
          data-testid={`results-${group.kind}`}
        >
          <h4>{group.label}</h4>
          <GroupView group={group} wr={wr} summary={summary} />
        </section>
      ))}
      {elsewhere.length > 0 || unread > 0 ? (
        <p className="muted wr-results-more">
          {[
            elsewhere.length > 0 ? `Also: ${elsewhere.join(', ')}` : null,
            unread > 0 ? `${String(unread)} more artifacts` : null,
          ]
            .filter((part) => part !== null)
            .join('; ')}
          , on the step&apos;s page.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Whether a workflow's summary shows this kind of a step's results: the kinds read first,
 * and the debug logs of a step that failed (they say why) or that uploaded (its log names
 * each file it sent).
 */
function inSummary(kind: ResultKind, wr: WorkRequestResponse): boolean {
  if (SUMMARY_KINDS.has(kind)) return true;
  return kind === 'debug-logs' && (failedByItself(wr) || wr.task_name === PACKAGE_UPLOAD_TASK);
}

function GroupView(props: {
  group: ResultGroup;
  wr: WorkRequestResponse;
  summary: boolean;
}): React.JSX.Element {
  const { group, wr, summary } = props;
  const each = (render: (a: ArtifactResponse) => React.JSX.Element) => (
    <>
      {group.artifacts.map((a) => (
        <div key={a.id}>{render(a)}</div>
      ))}
    </>
  );
  switch (group.kind) {
    case 'build-log':
      return each((a) => <BuildLogResult wr={wr} artifact={a} />);
    case 'binary-packages':
      return <BinaryPackagesResult artifacts={group.artifacts} />;
    case 'lintian':
      // The counts; the tags, with their filters, on the step's page.
      return summary
        ? each((a) => (
            <div className="wr-lintian-line">
              <span className="mono muted">{lintianSummary(a).architecture ?? '—'}</span>
              <LintianChips artifact={a} />
            </div>
          ))
        : each((a) => <LintianResult artifact={a} />);
    case 'autopkgtest':
      return each((a) => <AutopkgtestResult artifact={a} workRequestId={wr.id} />);
    default:
      return each((a) => <FilesResult artifact={a} workRequestId={wr.id} />);
  }
}
