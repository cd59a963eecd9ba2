import type { LucideIcon } from 'lucide-react';
import type { ArtifactResponse } from '@shared/contract';
import { CopyButton } from '@renderer/components/copy-button';
import { EmptyState } from '@renderer/components/empty-state';
import { formatBytes } from '@renderer/components/format';
import { FileText, FileX } from 'lucide-react';
import { isTextFile } from '@shared/results/categories';
import { visibleText } from '@shared/visible-text';
import { TableHead } from '@renderer/components/table-head';
import { RowActionButtons } from '@renderer/components/row-action-buttons';

type FileEntry = [string, ArtifactResponse['files'][string]];

/** An artifact's files: path, size, content type, SHA-256; download each, view the text ones. */
export function FileTable(props: {
  files: FileEntry[];
  notUploaded: string[];
  onDownload: (path: string) => void;
  downloadIcon: LucideIcon;
  /** Opens a text file in the log viewer. */
  onView: (path: string) => void;
}): React.JSX.Element {
  if (props.files.length === 0) {
    return (
      <EmptyState icon={FileX} title="No files">
        This artifact carries data only.
      </EmptyState>
    );
  }
  return (
    <table className="table file-table" aria-label="Files">
      <TableHead
        columns={[
          'Path',
          { label: 'Size', className: 'num' },
          'Content type',
          'SHA-256',
          { label: 'Actions', hide: 'visually' },
        ]}
      />
      <tbody>
        {props.files.map(([path, file]) => {
          const shown = visibleText(path);
          const sha256 = file.checksums.sha256 ?? Object.values(file.checksums)[0] ?? '';
          const missing = props.notUploaded.includes(path);
          return (
            <tr key={path} data-testid="artifact-file">
              <td className="mono file-path">
                {shown}
                {missing ? <span className="tone-attention"> (not uploaded)</span> : null}
              </td>
              <td className="mono num">{formatBytes(file.size)}</td>
              <td className="mono muted">{file.content_type ?? '—'}</td>
              <td className="mono checksum" title={sha256}>
                {sha256.slice(0, 16)}…
              </td>
              <td>
                <div className="row-actions">
                  <CopyButton text={sha256} label="SHA-256" />
                  <RowActionButtons
                    look="labelled"
                    subject={shown}
                    disabled={missing}
                    actions={[
                      ...(isTextFile(path)
                        ? [
                            {
                              verb: 'Open',
                              Icon: FileText,
                              run: () => {
                                props.onView(path);
                              },
                            },
                          ]
                        : []),
                      {
                        verb: 'Download',
                        Icon: props.downloadIcon,
                        run: () => {
                          props.onDownload(path);
                        },
                      },
                    ]}
                  />
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
