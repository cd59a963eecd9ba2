/**
 * The work requests screen as the window runs it, over a table bridge: the app's own query
 * client, main's events mapped into its cache, and fake timers advanced as time goes by.
 * For the tests of what the screen keeps in step with the server without a reload.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { BridgeProvider } from '@renderer/bridge';
import { createQueryClient } from '@renderer/queries/client';
import { useMainEvents } from '@renderer/queries/events';
import { serverQueries } from '@renderer/queries/servers';
import { WorkRequestsScreen } from '@renderer/screens/work-requests';
import { SERVER_A } from './server-a';
import type { TableBridge } from './table-bridge';

function MainEvents(): null {
  useMainEvents();
  return null;
}

/** Renders the screen on server A; returns the query client it uses. */
export function showWorkRequests(server: TableBridge): QueryClient {
  const queryClient = createQueryClient();
  queryClient.setQueryData(serverQueries.active.key, SERVER_A);
  render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={server.client}>
        <MainEvents />
        <WorkRequestsScreen />
      </BridgeProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

/** Lets `ms` go by: the app's timers fire and what they read is drawn. */
export async function wait(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
