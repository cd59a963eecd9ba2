/**
 * A provider for renderer tests of components that open pages: the bridge and the query
 * cache, with SERVER_A active from the first render (pages are opened on the active server).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BridgeProvider } from '@renderer/bridge';
import { serverQueries } from '@renderer/queries/servers';
import { fakeBridge, type FakeHandlers } from './fake-bridge';
import { SERVER_A } from './server-a';

export function WithServer(props: { children: ReactNode; handlers?: FakeHandlers }): ReactNode {
  const fake = fakeBridge({ 'servers.active': () => SERVER_A, ...props.handlers });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(serverQueries.active.key, SERVER_A);
  return (
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={fake.client}>{props.children}</BridgeProvider>
    </QueryClientProvider>
  );
}
