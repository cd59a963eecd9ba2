/**
 * The log viewer's page, shown by the shell in whichever area opened it (the artifacts or
 * the work requests) while the detail is a log.
 */
import { artifactQueries } from '@renderer/queries/artifacts';
import { useAppQuery, useServerQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { logQueries } from '@renderer/queries/logs';
import { RequireServer } from '@renderer/kit/require-server';
import { useUiStore, type Detail, type LogTarget } from '@renderer/state/ui-store';
import { artifactWebPath, webFilePath } from '@shared/web-paths';
import { LogViewer } from './log-viewer';
import './logs.css';
import { useOpen } from '@renderer/kit/navigation';

export { LiveLogScreen } from './live-log-screen';

export function LogScreen(props: { target: LogTarget }): React.JSX.Element {
  return (
    <RequireServer what="Reading logs">
      <LogPage
        key={`${props.target.server}:${String(props.target.artifactId)}:${props.target.path}`}
        {...props}
      />
    </RequireServer>
  );
}

function LogPage(props: { target: LogTarget }): React.JSX.Element {
  const { target } = props;
  const artifact = useServerQuery((scope) => artifactQueries.detail(scope, target.artifactId));
  const active = useAppQuery(serverQueries.active).data ?? null;
  const page = artifact.data ? artifactWebPath(artifact.data, active?.scope ?? null) : null;
  const webUrl = useServerQuery(
    (scope) =>
      logQueries.webFile(
        scope,
        target.artifactId,
        target.path,
        webFilePath(page ?? '/', target.path),
      ),
    { enabled: page !== null },
  );
  const server = active?.apiUrl ?? null;
  const { openWorkRequest, openArtifact } = useOpen();
  const area = useUiStore((s) => s.area);

  const back =
    target.workRequestId !== null
      ? {
          label: `Back to work request #${String(target.workRequestId)}`,
          go: (id: number) => {
            openWorkRequest(id);
          },
          id: target.workRequestId,
        }
      : {
          label: `Back to artifact #${String(target.artifactId)}`,
          go: openArtifact,
          id: target.artifactId,
        };

  return (
    <LogViewer
      profile={target.server}
      artifactId={target.artifactId}
      path={target.path}
      line={target.line}
      lineTexts={target.lineTexts ?? null}
      category={artifact.data?.category ?? null}
      backLabel={back.label}
      onBack={() => {
        back.go(back.id);
      }}
      webUrl={webUrl.data ?? null}
      server={server}
      onLineChange={(line) => {
        // Only the line changes: the viewer stays, and Back or a reload comes back to it (the
        // text it was found by is left out, as the line is now the one to show).
        const detail: Detail = { kind: 'log', ...target, line };
        delete detail.lineTexts;
        useUiStore.setState({ area, detail });
      }}
    />
  );
}
