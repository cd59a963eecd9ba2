import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from './components/empty-state';
import { areaInfo } from './shell/areas';
import { CommandPalette } from './shell/command-palette';
import { useGlobalShortcuts } from './shell/shortcuts';
import { Sidebar } from './shell/sidebar';
import { useApplyTheme } from './shell/theme';
import { TopBar } from './shell/top-bar';
import { useUiStore } from './state/ui-store';

export function App(): React.JSX.Element {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 10_000 } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}

function Shell(): React.JSX.Element {
  useApplyTheme();
  useGlobalShortcuts();
  const area = useUiStore((s) => s.area);
  const setArea = useUiStore((s) => s.setArea);
  const info = areaInfo(area);
  return (
    <div className="app-shell" data-testid="app-shell">
      <TopBar session={{ connection: 'signed-out' }} />
      <Sidebar />
      <main className="content" aria-labelledby="area-title">
        <h1 id="area-title">{info.label}</h1>
        {area === 'settings' ? null : (
          <EmptyState
            icon={LogIn}
            title="No Debusine server yet"
            action={
              <button
                type="button"
                className="button primary"
                onClick={() => {
                  setArea('settings');
                }}
              >
                Add a server
              </button>
            }
          >
            Add a server and sign in to {info.description.toLowerCase()}.
          </EmptyState>
        )}
      </main>
      <CommandPalette />
    </div>
  );
}
