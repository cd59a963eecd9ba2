import { useQuery } from '@tanstack/react-query';
import { useBridge } from '../bridge';
import type { ConnectionState as IndicatorState } from '../components/connection-indicator';
import { keys } from '../queries/keys';
import type { SessionSummary } from './top-bar';

/** The top bar's view of the session: active server, user, connection state. */
export function useSessionSummary(): SessionSummary {
  const bridge = useBridge();
  const whoami = useQuery({
    queryKey: keys.session.whoami(),
    queryFn: () => bridge.session.whoami(),
    staleTime: 60_000,
  });
  const connection = useQuery({
    queryKey: keys.connection.state(),
    queryFn: () => bridge.connection.get(),
    staleTime: Infinity,
    retry: false,
  });
  const server = whoami.data?.server ?? null;
  let state: IndicatorState = 'signed-out';
  const status = connection.data?.status;
  if (whoami.data?.authenticated) {
    if (status === 'offline' || status === 'error') state = 'offline';
    else if (status === 'connecting') state = 'reconnecting';
    else state = whoami.isError ? 'offline' : 'connected';
  } else if (whoami.isError && server) state = 'offline';
  return {
    ...(server ? { serverName: server.name, scope: server.scope ?? '' } : {}),
    ...(whoami.data?.user ? { username: whoami.data.user } : {}),
    connection: state,
  };
}
