/**
 * The session (who is signed in, where) and the watcher's connection state: app data. The
 * session names the server it is about, so a reader can tell whose it is.
 */
import { APP, defineQuery } from './define';
import { useAppQuery } from './hooks';

export const sessionQueries = {
  whoami: defineQuery([APP, 'session', 'whoami'], (bridge) => bridge.session.whoami(), {
    staleTime: 60_000,
  }),
  /** Main pushes every change of it (events.ts), so it is never refetched by itself. */
  connection: defineQuery([APP, 'connection'], (bridge) => bridge.connection.get(), {
    staleTime: Infinity,
    retry: false,
  }),
};

/** Who is signed in, where: the one whoami query (the top bar and the lists share it). */
export function useWhoami() {
  return useAppQuery(sessionQueries.whoami);
}

/** The watcher's connection state. */
export function useConnection() {
  return useAppQuery(sessionQueries.connection);
}
