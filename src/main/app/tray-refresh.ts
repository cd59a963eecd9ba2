/**
 * The tray's refresh: at most one read of the snapshot per burst of events (each event
 * moves the read `delayMs` later), and once stopped (the app quitting, the tray destroyed)
 * nothing more is shown, not even by a read that was under way then. Electron's Tray
 * throws "Tray is destroyed" from every method once `destroy()` was called, and the read
 * awaits the service, which a quit closes meanwhile.
 */
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
