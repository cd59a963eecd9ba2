import { Download, FolderDown } from 'lucide-react';
import { useState } from 'react';
import type { ArtifactResponse } from '@shared/contract';
import { binaryPackageRows } from '@shared/results/binary-packages';
import { formatBytes } from '@renderer/components/format';
import { useSaveArtifacts } from '@renderer/kit/download-file';
import { useDetail } from '@renderer/kit/navigation';
import { TableHead } from '@renderer/components/table-head';

/** Binary packages: one row per .deb, each downloadable, and all of them at once. */
export function BinaryPackagesResult(props: {
  artifacts: readonly ArtifactResponse[];
}): React.JSX.Element {
  // The packages are the page's work request's: its server is the one they are on.
  const { save, severalReady } = useSaveArtifacts(useDetail()?.server ?? null);
  const rows = binaryPackageRows(props.artifacts);
  const [status, setStatus] = useState<string | null>(null);
  const run = (work: Promise<string | null>): void => {
    setStatus('Downloading…');
    work.then(
      (done) => {
        setStatus(done);
      },
      (error: unknown) => {
        setStatus(`Download failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  };
  if (rows.length === 0) return <p className="muted">These artifacts list no .deb file.</p>;
  return (
    <div className="result-packages">
      <table className="result-table" aria-label="Binary packages">
        <TableHead
          columns={[
            'Package',
            'Version',
            'Architecture',
            'Size',
            'Installed size',
            { label: 'Download', hide: 'aria' },
          ]}
        />
        <tbody>
          {rows.map((row) => (
            <tr key={`${String(row.artifactId)}/${row.file}`} data-testid="binary-package-row">
              <td className="mono" title={row.file}>
                {row.package ?? row.file}
                {row.debugSymbols ? <span className="muted"> (debug symbols)</span> : null}
              </td>
              <td className="mono">{row.version ?? '—'}</td>
              <td className="mono">{row.architecture ?? '—'}</td>
              <td>{formatBytes(row.size)}</td>
              <td>{row.installedKiB === null ? '—' : formatBytes(row.installedKiB * 1024)}</td>
              <td>
                <button
                  type="button"
                  className="button"
                  aria-label={`Download ${row.file}`}
                  onClick={() => {
                    run(save({ file: { artifactId: row.artifactId, path: row.file } }));
                  }}
                >
                  <Download size={14} aria-hidden="true" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="button"
        disabled={!severalReady}
        onClick={() => {
          run(save({ files: rows.map((r) => ({ artifactId: r.artifactId, path: r.file })) }));
        }}
      >
        <FolderDown size={14} aria-hidden="true" />
        Download all .debs
      </button>
      {status ? (
        <p className="muted" role="status">
          {status}
        </p>
      ) : null}
    </div>
  );
}
