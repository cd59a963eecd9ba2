import { useEffect } from 'react';
import { useBridge } from '@renderer/bridge';
import { useUiStore } from '@renderer/state/ui-store';

/**
 * Main asks the window to show something (a notification or the tray was clicked): a work
 * request's page, an artifact's page, or the work requests.
 */
export function useNavigateFromMain(): void {
  const bridge = useBridge();
  useEffect(
    () =>
      bridge.on('app.navigate', (target) => {
        const ui = useUiStore.getState();
        if (target.kind === 'work-request') ui.openWorkRequest(target.id);
        else if (target.kind === 'artifact') ui.openArtifact(target.id);
        else if (target.kind === 'log') ui.openLog(target);
        else if (target.kind === 'live-log') ui.openLiveLog(target.workRequestId, target.line);
        else ui.setArea('work-requests');
      }),
    [bridge],
  );
}
