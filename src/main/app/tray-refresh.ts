/**
 * The tray's refresh: at most one read of the snapshot per burst of events (each event
 * moves the read `delayMs` later), and once stopped (the app quitting, the tray destroyed)
 * nothing more is shown, not even by a read that was under way then. Electron's Tray
 * throws "Tray is destroyed" from every method once `destroy()` was called, and the read
 * awaits the service, which a quit closes meanwhile.
 */
/**
 * Main's events after which the tray's snapshot may read otherwise: the connection, the
 * server, the watch list, an end, a change, and a notification shown (a step that started
 * waiting for the user is found by reading, with no completion from the server, and
 * changes the count of steps that need input).
 */
export const TRAY_EVENTS: ReadonlySet<string> = new Set([
  'connection.state',
  'session.changed',
  'watch.changed',
  'workRequest.completed',
  'workRequests.changed',
  'notification.shown',
]);

export interface TrayRefresher {
  /** Something changed: read the snapshot again, soon. */
  refresh(): void;
  /** No more reads, and no showing of one under way. */
  stop(): void;
}

export function trayRefresher<S>(deps: {
  read: () => Promise<S>;
  show: (snapshot: S) => void;
  delayMs: number;
}): TrayRefresher {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  return {
    refresh() {
      clearTimeout(timer);
      if (stopped) return;
      timer = setTimeout(() => {
        void deps.read().then(
          (snapshot) => {
            if (!stopped) deps.show(snapshot);
          },
          // A snapshot that cannot be read leaves the tray as it was.
          () => undefined,
        );
      }, deps.delayMs);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
