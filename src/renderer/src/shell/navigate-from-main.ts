import { NO_SERVER } from '@renderer/queries/define';
import { useMainEvent } from '@renderer/queries/events';
import { useUiStore } from '@renderer/state/ui-store';

/**
 * Main asks the window to show something (a notification or the tray was clicked): a work
 * request's page, an artifact's page, or the work requests.
 */
export function useNavigateFromMain(): void {
  useMainEvent('app.navigate', (target) => {
    const ui = useUiStore.getState();
    // The page is on the server main named (and made active before it said so).
    const server = target.server ?? NO_SERVER;
    if (target.kind === 'work-request') ui.openWorkRequest(server, target.id);
    else if (target.kind === 'artifact') ui.openArtifact(server, target.id);
    else if (target.kind === 'log') {
      const { artifactId, path, line, workRequestId } = target;
      ui.openLog({ server, artifactId, path, line, workRequestId });
    } else if (target.kind === 'live-log') {
      ui.openLiveLog(server, target.workRequestId, target.line);
    } else ui.setArea('work-requests');
  });
}
