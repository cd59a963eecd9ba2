import { AreaContent } from '@renderer/shell/area-content';
import { areaInfo } from '@renderer/shell/areas';
import { CommandPalette } from '@renderer/shell/command-palette';
import { OfflineBanner } from '@renderer/shell/offline-banner';
import { ServerSwitchNotice } from '@renderer/shell/server-switch-notice';
import { useGlobalShortcuts } from '@renderer/shell/shortcuts';
import { Sidebar } from '@renderer/shell/sidebar';
import { useApplyTheme } from '@renderer/shell/theme';
import { WindowDropTarget } from '@renderer/shell/window-drop';
import { TopBar } from '@renderer/shell/top-bar';
import { useSessionSummary } from '@renderer/shell/use-session';
import { useMainEvents } from '@renderer/queries/events';
import { useNavigateFromMain } from '@renderer/shell/navigate-from-main';
import { usePageNotifications, useUnreadFailuresTitle } from '@renderer/shell/page-notifications';
import { useUiStore } from '@renderer/state/ui-store';

/** The window: top bar, sidebar, the active area's screen, and the command palette. */
export function App(): React.JSX.Element {
  useApplyTheme();
  useGlobalShortcuts();
  useMainEvents();
  useNavigateFromMain();
  usePageNotifications();
  useUnreadFailuresTitle();
  const area = useUiStore((s) => s.area);
  const session = useSessionSummary();
  const info = areaInfo(area);
  return (
    <div className="app-shell" data-testid="app-shell">
      <TopBar session={session} />
      <Sidebar />
      <main className="content" aria-labelledby="area-title">
        <h1 id="area-title">{info.label}</h1>
        <ServerSwitchNotice />
        <OfflineBanner />
        <AreaContent area={area} />
      </main>
      <CommandPalette />
      <WindowDropTarget />
    </div>
  );
}
