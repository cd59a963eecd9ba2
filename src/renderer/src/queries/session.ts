import { useQuery } from '@tanstack/react-query';
import { useBridge } from '@renderer/bridge';
import { keys } from './keys';

/** The watcher's connection state: the one query (main pushes its changes). */
export function useConnection() {
  const bridge = useBridge();
  return useQuery({
    queryKey: keys.connection.state(),
    queryFn: () => bridge.connection.get(),
    staleTime: Infinity,
    retry: false,
  });
}

/** Who is signed in, where: the one whoami query (the top bar and the lists share it). */
export function useWhoami() {
  const bridge = useBridge();
  return useQuery({
    queryKey: keys.session.whoami(),
    queryFn: () => bridge.session.whoami(),
    staleTime: 60_000,
  });
}
