/**
 * Pages of server data, tied to their server. A work request's, an artifact's or a log's
 * page is opened on the server whose data the component that opens it shows, and is shown
 * only while that server is active: after a switch, the area shows the new server's list,
 * never the old page under the new server's name (its ids would name other things there).
 */
import { useCallback, useMemo } from 'react';
import { useBridge } from '@renderer/bridge';
import { NO_SERVER } from '@renderer/queries/define';
import { useScope } from '@renderer/queries/hooks';
import { useUiStore, type Detail, type LogTarget } from '@renderer/state/ui-store';

export interface Open {
  openWorkRequest: (id: number) => void;
  openArtifact: (id: number) => void;
  openLog: (target: Omit<LogTarget, 'server'>) => void;
  openLiveLog: (workRequestId: number, line?: number | null) => void;
}

/** Opens pages on the active server: the one whose data the caller shows. */
export function useOpen(): Open {
  const server = useScope() ?? NO_SERVER;
  // The same functions while the server is the same: callers list them in effects' deps.
  return useMemo(() => {
    const store = useUiStore.getState();
    return {
      openWorkRequest: (id) => {
        store.openWorkRequest(server, id);
      },
      openArtifact: (id) => {
        store.openArtifact(server, id);
      },
      openLog: (target) => {
        store.openLog({ ...target, server });
      },
      openLiveLog: (workRequestId, line) => {
        store.openLiveLog(server, workRequestId, line);
      },
    };
  }, [server]);
}

/**
 * Opens a pasted address on the server it names (main switches to it when it is one of
 * the app's servers): resolves to null once shown, or to why it was not.
 */
export function useOpenAddress(): (text: string) => Promise<string | null> {
  const bridge = useBridge();
  return useCallback(
    (text: string) =>
      bridge.links
        .open({ text: text.trim() })
        .then((outcome) => ('refused' in outcome ? outcome.refused : null)),
    [bridge],
  );
}

/** The page open in the area, when it is the active server's; null otherwise. */
export function useDetail(): Detail | null {
  const detail = useUiStore((s) => s.detail);
  const scope = useScope();
  return detail !== null && detail.server === scope ? detail : null;
}
