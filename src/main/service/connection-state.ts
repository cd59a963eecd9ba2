/**
 * The contract's `connection.state` from the completion watcher's own state: what the
 * renderer shows of the connection (and since when, where the watcher knows it better than
 * the moment the event is sent).
 */
import type { ConnectionState } from '../../shared/contract';
import type { ConnectionState as WatcherState } from '../watch/completion-watcher';

export interface ConnectionChange {
  next: Omit<ConnectionState, 'since'>;
  /** ISO time the state began; undefined: now. */
  since?: string;
}

export function connectionStateOf(serverId: string, state: WatcherState): ConnectionChange {
  const at = (ms: number): string => new Date(ms).toISOString();
  switch (state.state) {
    case 'idle':
    case 'connecting':
      return { next: { serverId, status: 'connecting', nextAttemptAt: null, error: null } };
    case 'connected':
      return {
        next: { serverId, status: 'connected', nextAttemptAt: null, error: null },
        since: at(state.since),
      };
    case 'reconnecting':
      return {
        next: {
          serverId,
          status: 'reconnecting',
          nextAttemptAt: at(state.nextAttemptAt),
          error: state.error,
        },
      };
    case 'offline':
      return {
        next: { serverId, status: 'offline', nextAttemptAt: null, error: null },
        since: at(state.since),
      };
    case 'signed-out':
      return { next: { serverId, status: 'signed-out', nextAttemptAt: null, error: state.error } };
    case 'stopped':
      // Refused for a reason other than the token: nothing more will come; shown as offline.
      return { next: { serverId, status: 'offline', nextAttemptAt: null, error: state.error } };
  }
}
