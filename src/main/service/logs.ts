/**
 * The log viewer's entries of the bridge, on the active server: logs.open takes an
 * artifact id and a path inside the artifact (checked there), logs.openLive a running
 * work request, and everything after goes by the handle they answer with: a live log's
 * handle to the live logs, any other to the stored ones. A handle is its page's: another
 * page cannot use it, its progress goes to that page alone, and it is closed when the page
 * goes.
 */
import type { Caller } from '../bridge/caller';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { LiveLogStore } from '../logs/live-log-store';
import type { LogStore } from '../logs/log-store';
import type { ServerSummary } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import { activeServerNamed, type SessionProvider } from './session';

type Handlers = Pick<
  ServiceHandlers,
  | 'logs.open'
  | 'logs.openLive'
  | 'logs.info'
  | 'logs.lines'
  | 'logs.search'
  | 'logs.close'
  | 'logs.cancel'
>;

function logKey(handle: string): string {
  return `log:${handle}`;
}

/** The handle, when this page opened it; the same refusal as for a closed one otherwise. */
function own(caller: Caller, handle: string): string {
  if (!caller.holds(logKey(handle))) {
    throw new DebusineError(
      'not-found',
      'This log is not open (it was closed, or the app restarted)',
      { rule: 'log-handle' },
    );
  }
  return handle;
}

/** The active server, when it is the one the page names (activeServerNamed). */
function activeAs(session: SessionProvider, profileId: string): ServerSummary {
  return activeServerNamed(session, profileId, {
    rule: 'log-server',
    message: (active) =>
      `This log is on another server than the active one (${active}): switch back to open it.`,
  });
}

export function logHandlers(
  store: LogStore,
  session: SessionProvider,
  live?: LiveLogStore,
): Handlers {
  const activeUrl = (): string | null => session.active()?.apiUrl ?? null;
  const liveOf = (handle: string): LiveLogStore | undefined =>
    live?.has(handle) ? live : undefined;
  return {
    'logs.open': async ({ server: profileId, artifactId, path }, caller) => {
      const server = activeAs(session, profileId);
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
    'logs.openLive': async ({ server: profileId, workRequestId }, caller) => {
      const server = activeAs(session, profileId);
      if (!live) throw new DebusineError('unsupported', 'Live logs are not available here.');
      const workRequest = await session.client().workRequestGet(workRequestId);
      const state = await live.open(
        {
          apiUrl: server.apiUrl,
          workRequestId,
          sbuild: workRequest.task_type === 'Worker' && workRequest.task_name === 'sbuild',
          // Asked of this server only: once the app works with another, following stops.
          stillRunning: async () =>
            activeUrl() === server.apiUrl &&
            (await session.client().workRequestGet(workRequestId)).status === 'running',
        },
        (changed) => {
          caller.emit('logs.progress', changed);
        },
      );
      caller.hold(logKey(state.handle), () => live.close(state.handle));
      return state;
    },
    // Async, so that an unknown handle rejects rather than throws.
    'logs.info': async ({ handle }, caller) => {
      own(caller, handle);
      return Promise.resolve(liveOf(handle)?.state(handle, activeUrl()) ?? store.state(handle));
    },
    'logs.lines': async ({ handle, from, count }, caller) => {
      own(caller, handle);
      return (
        liveOf(handle)?.lines(handle, activeUrl(), from, count) ?? store.lines(handle, from, count)
      );
    },
    'logs.search': async (
      { handle, query, regex, caseSensitive, fromLine, direction, until },
      caller,
    ) => {
      own(caller, handle);
      const options = { regex, caseSensitive };
      return (
        liveOf(handle)?.search(handle, activeUrl(), query, options, fromLine, direction, until) ??
        store.search(handle, query, options, fromLine, direction, until)
      );
    },
    'logs.cancel': async ({ handle }, caller) => {
      own(caller, handle);
      return liveOf(handle)?.cancel(handle, activeUrl()) ?? store.cancel(handle);
    },
    'logs.close': async ({ handle }, caller) => {
      await caller.release(logKey(own(caller, handle)));
      return undefined;
    },
  };
}
