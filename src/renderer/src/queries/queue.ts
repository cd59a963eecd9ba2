/** Where a step stands in its server's queue (main's `queue.estimate`). */
import { STUCK_REFRESH_MS } from '@shared/results/queue';
import { defineQuery, type Scope } from './define';

/** The queue moves slowly against a page: a pending step's place is read again this often. */
export const QUEUE_REFRESH_MS = 30_000;

/** The Queue tab reads the counts again this often while it is open. */
export const QUEUE_STATUS_REFRESH_MS = 10_000;

export const queueQueries = {
  /** Keyed by the step's status too: a step that starts is another question. */
  estimate: (scope: Scope, id: number, status: string) =>
    defineQuery(
      [scope, 'queue', 'estimate', id, status],
      (bridge) => bridge.queue.estimate({ id }),
      { refetchInterval: status === 'pending' ? QUEUE_REFRESH_MS : false, retry: false },
    ),
  /** The user's watched work that no worker can start, for the window's title. */
  stuck: (scope: Scope) =>
    defineQuery([scope, 'queue', 'stuck'], (bridge) => bridge.queue.stuck(), {
      // Main keeps its answer this long: asking sooner would read the same one.
      refetchInterval: STUCK_REFRESH_MS,
      retry: false,
    }),
  /** The queue per architecture, as the Queue tab shows it. */
  status: (scope: Scope) =>
    defineQuery([scope, 'queue', 'status'], (bridge) => bridge.queue.status(), {
      refetchInterval: QUEUE_STATUS_REFRESH_MS,
    }),
};
