/**
 * The live log of a running step in the log viewer: the viewer follows it as it arrives,
 * and once the step ends it gives way to the stored build log at the same line (found by its
 * text near where it should be: same-line.ts), or to the step's page when it has none.
 */
import { useCallback } from 'react';
import { useBridge } from '@renderer/bridge';
import type { BridgeClient } from '@shared/contract';
import { RequireServer } from '@renderer/kit/require-server';
import { useOpen } from '@renderer/kit/navigation';
import type { LogState } from '@shared/log-types';
import { linkHref, type ArtifactResponse } from '@shared/models';
import { LogViewer } from './log-viewer';
import { LINES_BEFORE } from './same-line';
import './logs.css';

export interface LiveLogTarget {
  /** The server profile the step is on. */
  server: string;
  workRequestId: number;
  line: number | null;
}

export function LiveLogScreen(props: { target: LiveLogTarget }): React.JSX.Element {
  return (
    <RequireServer what="Reading logs">
      <LiveLogPage
        key={`${props.target.server}:${String(props.target.workRequestId)}`}
        {...props}
      />
    </RequireServer>
  );
}

/** The .build file of a build log artifact: the one its data names, else the first listed. */
function buildLogPath(artifact: ArtifactResponse): string | null {
  const named = artifact.data.filename;
  const files = Object.keys(artifact.files);
  if (typeof named === 'string' && files.includes(named)) return named;
  return files.find((f) => f.endsWith('.build')) ?? null;
}

/** The stored build log of a step that ended, if it has one. */
async function storedLog(
  bridge: BridgeClient,
  id: number,
): Promise<{ artifactId: number; path: string } | null> {
  const wr = await bridge.workRequests.get({ id });
  // A step's artifacts are a handful; a server listing thousands is not read past a few.
  for (const artifactId of wr.artifacts.slice(0, 20)) {
    const artifact = await bridge.artifacts.get({ id: artifactId });
    if (artifact.category !== 'debian:package-build-log') continue;
    const path = buildLogPath(artifact);
    if (path !== null) return { artifactId, path };
  }
  return null;
}

function LiveLogPage(props: { target: LiveLogTarget }): React.JSX.Element {
  const { target } = props;
  const bridge = useBridge();
  const { openWorkRequest, openLog } = useOpen();
  const id = target.workRequestId;

  const onLiveEnded = useCallback(
    (state: LogState, line: number) => {
      const start = state.live?.sbuildStart ?? null;
      // The live line's text and those before it, by which the stored log's line is found
      // near the estimate.
      const from = Math.max(0, line - LINES_BEFORE);
      const texts = bridge.logs
        .lines({ handle: state.handle, from, count: line - from + 1 })
        .then((window) =>
          window.from + window.lines.length === line + 1
            ? window.lines.map((l) => l.text)
            : undefined,
        )
        .catch(() => undefined);
      Promise.all([storedLog(bridge, id), texts]).then(
        ([stored, lineTexts]) => {
          if (stored === null) {
            openWorkRequest(id);
            return;
          }
          const at = start === null ? line : Math.max(0, line - start);
          openLog({
            ...stored,
            workRequestId: id,
            line: at,
            ...(lineTexts === undefined ? {} : { lineTexts }),
          });
        },
        () => {
          openWorkRequest(id);
        },
      );
    },
    [bridge, id, openLog, openWorkRequest],
  );

  const openInBrowser = useCallback(() => {
    void bridge.workRequests
      .get({ id })
      .then((wr) => {
        const path = wr.url ?? linkHref(wr.links.webui_self) ?? `/work-request/${String(id)}/`;
        return bridge.links.webui({ server: target.server, path });
      })
      .then((url) => bridge.app.openExternal({ url }))
      .catch(() => undefined);
  }, [bridge, id, target.server]);

  return (
    <LogViewer
      profile={target.server}
      artifactId={0}
      path="Live log"
      line={target.line}
      category={null}
      backLabel={`Back to work request #${String(id)}`}
      onBack={() => {
        openWorkRequest(id);
      }}
      webUrl={null}
      // A live log has no address of its own to link to: its step's page has.
      server={null}
      // The line stays the viewer's: the live log is left behind once its step ends.
      onLineChange={() => undefined}
      liveWorkRequestId={id}
      onLiveEnded={onLiveEnded}
      onLiveOpenInBrowser={openInBrowser}
    />
  );
}
