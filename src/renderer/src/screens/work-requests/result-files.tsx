import { Box, FileText } from 'lucide-react';
import type { ArtifactResponse } from '@shared/contract';
import { autopkgtestResults } from '@shared/results/autopkgtest';
import { isTextFile } from '@shared/results/categories';
import { visibleText } from '@shared/visible-text';
import { formatBytes } from '@renderer/components/format';
import { TableHead } from '@renderer/components/table-head';
import { useOpen } from '@renderer/kit/navigation';

function OpenLogButton(props: {
  artifactId: number;
  path: string;
  workRequestId: number;
  label?: string;
}): React.JSX.Element {
  const { openLog } = useOpen();
  return (
    <button
      type="button"
      className="button"
      aria-label={`${props.label ?? 'Open'} ${visibleText(props.path)}`}
      onClick={() => {
        openLog({
          artifactId: props.artifactId,
          path: props.path,
          line: null,
          workRequestId: props.workRequestId,
        });
      }}
    >
      <FileText size={14} aria-hidden="true" />
      {props.label ?? 'Open'}
    </button>
  );
}

function ArtifactLink(props: { id: number }): React.JSX.Element {
  const { openArtifact } = useOpen();
  return (
    <button
      type="button"
      className="link-button"
      onClick={() => {
        openArtifact(props.id);
      }}
    >
      <Box size={14} aria-hidden="true" />
      <span className="mono">Artifact #{props.id}</span>
    </button>
  );
}

/** An artifact's files by name and size; text files open in the log viewer. */
export function FilesResult(props: {
  artifact: ArtifactResponse;
  workRequestId: number;
}): React.JSX.Element {
  const { artifact } = props;
  const files = Object.entries(artifact.files).sort(([a], [b]) => a.localeCompare(b, 'en'));
  return (
    <div className="result-files">
      <ArtifactLink id={artifact.id} />
      {files.length === 0 ? (
        <p className="muted">No files.</p>
      ) : (
        <ul className="result-file-list">
          {files.map(([path, file]) => (
            <li key={path}>
              <span className="mono">{visibleText(path)}</span>{' '}
              <span className="muted">{formatBytes(file.size)}</span>
              {isTextFile(path) ? (
                <OpenLogButton
                  artifactId={artifact.id}
                  path={path}
                  workRequestId={props.workRequestId}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const TONE: Record<string, string> = { PASS: 'success', FAIL: 'danger', SKIP: 'muted' };

/** Autopkgtest: each test with its result, and its log. */
export function AutopkgtestResult(props: {
  artifact: ArtifactResponse;
  workRequestId: number;
}): React.JSX.Element {
  const { artifact } = props;
  const results = autopkgtestResults(artifact);
  return (
    <div className="result-autopkgtest">
      {results.length === 0 ? (
        <p className="muted">The artifact names no test result.</p>
      ) : (
        <table className="result-table" aria-label="Autopkgtest results">
          <TableHead columns={['Test', 'Result', 'Details']} />
          <tbody>
            {results.map((r) => (
              <tr key={r.name} data-testid="autopkgtest-row">
                <td className="mono">{visibleText(r.name)}</td>
                <td>
                  <span className={`result-badge tone-${TONE[r.status] ?? 'attention'}`}>
                    {r.status}
                  </span>
                </td>
                <td>{r.details ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {Object.hasOwn(artifact.files, 'log') ? (
        <OpenLogButton
          artifactId={artifact.id}
          path="log"
          workRequestId={props.workRequestId}
          label="Open log"
        />
      ) : null}
    </div>
  );
}
