import { SCREENS } from './screens';
import { areaInfo } from './shell/areas';
import { CommandPalette } from './shell/command-palette';
import { OfflineBanner } from './shell/offline-banner';
import { useGlobalShortcuts } from './shell/shortcuts';
import { Sidebar } from './shell/sidebar';
import { useApplyTheme } from './shell/theme';
import { WindowDropTarget } from './shell/window-drop';
import { TopBar } from './shell/top-bar';
import { useSessionSummary } from './shell/use-session';
import { useBridgeEvents } from './queries/invalidation';
import { useUiStore } from './state/ui-store';

/** The window: top bar, sidebar, the active area's screen, and the command palette. */
export function App(): React.JSX.Element {
  useApplyTheme();
  useGlobalShortcuts();
  useBridgeEvents();
  const area = useUiStore((s) => s.area);
  const session = useSessionSummary();
  const info = areaInfo(area);
  const Screen = SCREENS[area];
  return (
    <div className="app-shell" data-testid="app-shell">
      <TopBar session={session} />
      <Sidebar />
      <main className="content" aria-labelledby="area-title">
        <h1 id="area-title">{info.label}</h1>
        <OfflineBanner />
        <Screen />
      </main>
      <CommandPalette />
      <WindowDropTarget />
    </div>
  );
}
