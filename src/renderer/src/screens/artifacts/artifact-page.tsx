import {
  CircleCheck,
  Download,
  ExternalLink,
  FileArchive,
  FolderDown,
  Terminal,
} from 'lucide-react';
import { useMemo, useState } from 'react';
import type { ArtifactResponse } from '@shared/contract';
import { useBridge } from '@renderer/bridge';
import { copyText } from '@renderer/components/clipboard';
import { CopyButton } from '@renderer/components/copy-button';
import { useDownloadRows } from '@renderer/kit/download-file';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatBytes } from '@renderer/components/format';
import { JsonView } from '@renderer/components/json-view';
import { LoadingState } from '@renderer/components/loading-state';
import { RelationsGraph } from '@renderer/kit/relations-graph';
import { StartWorkflowForm } from '@renderer/kit/start-workflow-form';
import { TimeAgo } from '@renderer/components/time-ago';
import { artifactQueries } from '@renderer/queries/artifacts';
import { useAppQuery, useServerQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { artifactWebPath } from '@shared/web-paths';
import { usePaletteCommands, type PaletteCommand } from '@renderer/state/palette';
import { DownloadList } from './download-list';
import { FileTable } from './file-table';
import { useUploadedHere } from '@renderer/kit/uploaded-here';
import { useOpen } from '@renderer/kit/navigation';

/** The `debusine` CLI command that does what this page's download does. */
export function cliDownloadCommand(id: number, tarball = false): string {
  return `debusine artifact download --target-directory .${tarball ? ' --tarball' : ''} ${String(id)}`;
}

/**
 * One artifact: what it is, its files, its relations and data; download and open it.
 * `server`: the profile the page is on, which its downloads name.
 */
export function ArtifactPage(props: { id: number; server: string }): React.JSX.Element {
  const artifact = useServerQuery((scope) => artifactQueries.detail(scope, props.id));
  if (artifact.isPending) return <LoadingState label={`Loading artifact ${String(props.id)}…`} />;
  if (artifact.isError) {
    return (
      <ErrorState error={artifact.error} onRetry={() => void artifact.refetch()}>
        <p className="muted">
          Looked up: artifact <span className="mono">#{props.id}</span> on the active server.
        </p>
      </ErrorState>
    );
  }
  return <ArtifactView artifact={artifact.data} server={props.server} />;
}

function ArtifactView(props: { artifact: ArtifactResponse; server: string }): React.JSX.Element {
  const { artifact } = props;
  const bridge = useBridge();
  const downloads = useDownloadRows(props.server);
  const scope = useAppQuery(serverQueries.active).data?.scope ?? null;
  const webPath = artifactWebPath(artifact, scope);
  const webUrl = useServerQuery((scope) => artifactQueries.webPage(scope, artifact.id, webPath));
  const files = Object.entries(artifact.files).sort(([a], [b]) => a.localeCompare(b));
  const totalSize = files.reduce((sum, [, f]) => sum + f.size, 0);
  const pending = artifact.files_to_upload;
  const cli = cliDownloadCommand(artifact.id);
  const justUploaded = useUploadedHere(artifact.id);
  const { openWorkRequest, openLog } = useOpen();
  // The palette's copy has no button to say it failed: the page says it, by the command.
  const [copyProblem, setCopyProblem] = useState<string | null>(null);

  // Each host opens it its own way: the system browser, or a new tab of the browser the app
  // runs in (the page answers app.openExternal there).
  const openInBrowser = (): void => {
    if (webUrl.data) void bridge.app.openExternal({ url: webUrl.data });
  };
  const { save } = downloads;
  const downloadFile = (path: string): void => {
    save({ file: { artifactId: artifact.id, path } });
  };
  const commands = useMemo<PaletteCommand[]>(
    () => [
      {
        id: 'download-tarball',
        label: `Download artifact ${String(artifact.id)} as .tar.gz`,
        icon: FileArchive,
        run: () => {
          save({ tarball: artifact.id });
        },
      },
      {
        id: 'copy-cli',
        label: 'Copy the debusine CLI download command',
        icon: Terminal,
        run: () => {
          copyText(cli).then(
            () => {
              setCopyProblem(null);
            },
            (error: unknown) => {
              setCopyProblem((error as Error).message);
            },
          );
        },
      },
    ],
    [artifact.id, cli, save],
  );
  usePaletteCommands('artifact-page', `Artifact ${String(artifact.id)}`, commands);

  return (
    <article className="artifact-page" aria-labelledby="artifact-title">
      <header className="artifact-head">
        <div>
          <h2 id="artifact-title">
            <span className="mono">#{artifact.id}</span> <span>{artifact.category}</span>
          </h2>
        </div>
        <div className="artifact-actions">
          <button type="button" className="button" disabled={!webUrl.data} onClick={openInBrowser}>
            <ExternalLink size={14} aria-hidden="true" />
            Open in browser
          </button>
          <CopyButton text={cli} label="Copy CLI command" />
          <button
            type="button"
            className="button"
            disabled={files.length === 0}
            onClick={() => {
              save({ tarball: artifact.id });
            }}
          >
            <FileArchive size={14} aria-hidden="true" />
            Download .tar.gz
          </button>
          <button
            type="button"
            className="button primary"
            disabled={files.length === 0 || !downloads.severalReady}
            onClick={() => {
              save({ files: files.map(([path]) => ({ artifactId: artifact.id, path })) });
            }}
          >
            <FolderDown size={14} aria-hidden="true" />
            Download all files
          </button>
        </div>
      </header>
      <dl className="facts">
        <div>
          <dt>Workspace</dt>
          <dd className="mono">{artifact.workspace}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <TimeAgo iso={artifact.created_at} />
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{artifact.expire_at ? <TimeAgo iso={artifact.expire_at} /> : 'Never'}</dd>
        </div>
        <div>
          <dt>Files</dt>
          <dd>
            {files.length} · {formatBytes(totalSize)}
            {pending.length > 0 ? (
              <span className="tone-attention"> · {pending.length} not uploaded yet</span>
            ) : null}
          </dd>
        </div>
      </dl>
      <p className="cli-line">
        <Terminal size={13} aria-hidden="true" className="muted" />
        <code className="mono">{cli}</code>
      </p>
      {copyProblem === null ? null : (
        <p role="alert" className="tone-attention">
          {copyProblem}
        </p>
      )}
      <DownloadList
        rows={downloads.rows}
        onDismiss={downloads.dismiss}
        onCancel={downloads.cancel}
      />
      {justUploaded ? (
        <section className="just-uploaded" aria-labelledby="start-workflow-title">
          <h3 id="start-workflow-title">
            <CircleCheck size={15} aria-hidden="true" className="tone-success" /> Uploaded. Start a
            workflow on it?
          </h3>
          <StartWorkflowForm
            workspace={artifact.workspace}
            initialTaskData={{ source_artifact: artifact.id }}
            onStarted={openWorkRequest}
          />
        </section>
      ) : null}

      <section aria-labelledby="artifact-files" className="artifact-section">
        <h3 id="artifact-files">Files</h3>
        <FileTable
          files={files}
          notUploaded={pending}
          onDownload={downloadFile}
          downloadIcon={Download}
          onView={(path) => {
            openLog({ artifactId: artifact.id, path, line: null, workRequestId: null });
          }}
        />
      </section>

      {/* Relations to and from, with their type: the shared graph, list and editor. */}
      <div className="artifact-section">
        <RelationsGraph artifactId={artifact.id} />
      </div>

      <section aria-labelledby="artifact-data" className="artifact-section">
        <h3 id="artifact-data">Data</h3>
        <JsonView value={artifact.data} label={`Data of artifact ${String(artifact.id)}`} />
      </section>
    </article>
  );
}
