import { NO_SERVER } from '@renderer/queries/define';
import { useMainEvent } from '@renderer/queries/events';
import { useServerSwitchNotice } from '@renderer/state/server-switch-notice';
import { useUiStore } from '@renderer/state/ui-store';

/**
 * Main asks the window to show something (a notification or the tray was clicked, a link
 * was followed): a work request's page, an artifact's page, or the work requests. Where
 * main switched servers for it, the window says so, and to which (ServerSwitchNotice).
 */
export function useNavigateFromMain(): void {
  useMainEvent('app.navigate', (target) => {
    if (target.switchedTo) useServerSwitchNotice.getState().show(target.switchedTo);
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
