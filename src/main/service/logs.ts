/**
 * The log viewer's entries of the bridge, on the active server: logs.open takes an
 * artifact id and a path inside the artifact (checked there), and everything after goes
 * by the handle it answers with. A handle is its renderer's: another renderer cannot use
 * it, its progress goes to that renderer alone, and it is closed when the renderer goes.
 */
import type { Caller } from '../bridge/caller';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { SessionProvider } from './session';
import { DebusineError } from '../../shared/errors';
import type { LogStore } from '../logs/log-store';

type Handlers = Pick<
  ServiceHandlers,
  'logs.open' | 'logs.info' | 'logs.lines' | 'logs.search' | 'logs.close' | 'logs.cancel'
>;

function logKey(handle: string): string {
  return `log:${handle}`;
}

/** The handle, when this renderer opened it; the same refusal as for a closed one otherwise. */
function own(caller: Caller, handle: string): string {
  if (!caller.holds(logKey(handle))) {
    throw new DebusineError(
      'not-found',
      'This log is not open (it was closed, or the app restarted)',
      {
        rule: 'log-handle',
      },
    );
  }
  return handle;
}

export function logHandlers(store: LogStore, session: SessionProvider): Handlers {
  return {
    'logs.open': async ({ server: profileId, artifactId, path }, caller) => {
      const server = session.active();
      if (!server) throw new DebusineError('auth', 'No Debusine server is configured yet.');
      // Artifact ids mean other artifacts on another server: a page of one server's log
      // that outlived a switch must not open the other's.
      if (server.id !== profileId) {
        throw new DebusineError(
          'conflict',
          `This log is on another server than the active one (${server.name}): switch back to open it.`,
          { rule: 'log-server' },
        );
      }
      const state = await store.open(
        { apiUrl: server.apiUrl, client: () => session.client() },
        artifactId,
        path,
        (changed) => {
          caller.emit('logs.progress', changed);
        },
      );
      caller.hold(logKey(state.handle), () => store.close(state.handle));
      return state;
    },
    // Async, so that an unknown handle rejects rather than throws.
    'logs.info': async ({ handle }, caller) => Promise.resolve(store.state(own(caller, handle))),
    'logs.lines': async ({ handle, from, count }, caller) =>
      store.lines(own(caller, handle), from, count),
    'logs.search': async ({ handle, query, regex, caseSensitive, fromLine, direction }, caller) =>
      store.search(own(caller, handle), query, { regex, caseSensitive }, fromLine, direction),
    'logs.cancel': async ({ handle }, caller) => store.cancel(own(caller, handle)),
    'logs.close': async ({ handle }, caller) => {
      await caller.release(logKey(own(caller, handle)));
      return undefined;
    },
  };
}
