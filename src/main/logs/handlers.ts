/**
 * The log viewer's entries of the bridge, on the active server: logs.open takes an
 * artifact id and a path inside the artifact (checked there), logs.openLive a running
 * work request, and everything after goes by the handle they answer with: a live log's
 * handle to the live logs, any other to the stored ones.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { SessionProvider } from '../service/session';
import { DebusineError } from '../../shared/errors';
import type { LiveLogStore } from './live-log-store';
import type { LogStore } from './log-store';

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

export function logHandlers(
  store: LogStore,
  session: SessionProvider,
  live?: LiveLogStore,
): Handlers {
  const noServer = () => new DebusineError('auth', 'No Debusine server is configured yet.');
  const activeUrl = () => session.active()?.apiUrl ?? null;
  const liveOf = (handle: string) => (live?.has(handle) ? live : undefined);
  return {
    'logs.open': ({ artifactId, path }) => {
      const server = session.active();
      if (!server) return Promise.reject(noServer());
      return store.open(
        { apiUrl: server.apiUrl, client: () => session.client() },
        artifactId,
        path,
      );
    },
    'logs.openLive': async ({ workRequestId }) => {
      const server = session.active();
      if (!server) throw noServer();
      if (!live) throw new DebusineError('unsupported', 'Live logs are not available here.');
      const client = session.client();
      const workRequest = await client.workRequestGet(workRequestId);
      return live.open({
        apiUrl: server.apiUrl,
        workRequestId,
        sbuild: workRequest.task_type === 'Worker' && workRequest.task_name === 'sbuild',
        // Asked of this server only: once the app works with another, following stops.
        stillRunning: async () =>
          activeUrl() === server.apiUrl &&
          (await session.client().workRequestGet(workRequestId)).status === 'running',
      });
    },
    // Async, so that an unknown handle rejects rather than throws.
    'logs.info': async ({ handle }) =>
      Promise.resolve(liveOf(handle)?.state(handle, activeUrl()) ?? store.state(handle)),
    'logs.lines': ({ handle, from, count }) =>
      liveOf(handle)?.lines(handle, activeUrl(), from, count) ?? store.lines(handle, from, count),
    'logs.search': ({ handle, query, regex, caseSensitive, fromLine, direction }) =>
      liveOf(handle)?.search(
        handle,
        activeUrl(),
        query,
        { regex, caseSensitive },
        fromLine,
        direction,
      ) ?? store.search(handle, query, { regex, caseSensitive }, fromLine, direction),
    'logs.cancel': ({ handle }) =>
      liveOf(handle)?.cancel(handle, activeUrl()) ?? store.cancel(handle),
    'logs.close': async ({ handle }) => {
      const onLive = liveOf(handle);
      if (onLive) await onLive.close(handle);
      else await store.close(handle);
      return undefined;
    },
  };
}
