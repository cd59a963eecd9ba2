/**
 * The log viewer's entries of the bridge, on the active server: logs.open takes an
 * artifact id and a path inside the artifact (checked there), and everything after goes
 * by the handle it answers with.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { SessionProvider } from '../service/session';
import { DebusineError } from '../../shared/errors';
import type { LogStore } from './log-store';

type Handlers = Pick<
  ServiceHandlers,
  'logs.open' | 'logs.info' | 'logs.lines' | 'logs.search' | 'logs.close' | 'logs.cancel'
>;

export function logHandlers(store: LogStore, session: SessionProvider): Handlers {
  return {
    'logs.open': ({ artifactId, path }) => {
      const server = session.active();
      if (!server) {
        return Promise.reject(new DebusineError('auth', 'No Debusine server is configured yet.'));
      }
      return store.open(
        { apiUrl: server.apiUrl, client: () => session.client() },
        artifactId,
        path,
      );
    },
    // Async, so that an unknown handle rejects rather than throws.
    'logs.info': async ({ handle }) => Promise.resolve(store.state(handle)),
    'logs.lines': ({ handle, from, count }) => store.lines(handle, from, count),
    'logs.search': ({ handle, query, regex, caseSensitive, fromLine, direction }) =>
      store.search(handle, query, { regex, caseSensitive }, fromLine, direction),
    'logs.cancel': ({ handle }) => store.cancel(handle),
    'logs.close': async ({ handle }) => {
      await store.close(handle);
      return undefined;
    },
  };
}
