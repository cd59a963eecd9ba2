import type { ArtifactResponse, WorkRequestResponse } from '@shared/contract';
import { groupResults, type ResultGroup } from '@shared/results/categories';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useResultArtifacts } from '@renderer/queries/results';
import { BuildLogResult } from './result-build-log';
import { AutopkgtestResult, FilesResult } from './result-files';
import { LintianResult } from './result-lintian';
import { BinaryPackagesResult } from './result-packages';

/** What a work request produced, by kind, each kind in the view that reads it best. */
export function WorkRequestResults(props: { wr: WorkRequestResponse }): React.JSX.Element {
  const { wr } = props;
  const artifacts = useResultArtifacts(wr.id, wr.artifacts);
  if (wr.artifacts.length === 0) return <p className="muted">None created.</p>;
  if (artifacts.isPending) return <LoadingState label="Loading the results…" />;
  if (artifacts.isError) {
    return <ErrorState error={artifacts.error} onRetry={() => void artifacts.refetch()} />;
  }
  return (
    <div className="wr-results">
      {groupResults(artifacts.data).map((group) => (
        <section
          key={group.kind}
          className="wr-result-group"
          aria-label={group.label}
          data-testid={`results-${group.kind}`}
        >
          <h4>{group.label}</h4>
          <GroupView group={group} wr={wr} />
        </section>
      ))}
    </div>
  );
}

function GroupView(props: { group: ResultGroup; wr: WorkRequestResponse }): React.JSX.Element {
  const { group, wr } = props;
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
      return each((a) => <LintianResult artifact={a} />);
    case 'autopkgtest':
      return each((a) => <AutopkgtestResult artifact={a} workRequestId={wr.id} />);
    default:
      return each((a) => <FilesResult artifact={a} workRequestId={wr.id} />);
  }
}
