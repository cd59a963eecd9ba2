/**
 * The network, seen from main: Electron's main process has no event when the network goes
 * or comes back, or when the computer moves from one network to another (powerMonitor has
 * none; `online`/`offline` are the renderer's `navigator` events). So it is polled:
 * `net.isOnline()` for the network going and coming, and the machine's own addresses for a
 * move to another network, after which the notification socket may be half-open (open on
 * this side, gone on the server's) until the heartbeat notices.
 */
import { networkInterfaces } from 'node:os';

/** How often the network is looked at: a missed completion waits at most this much more. */
export const NETWORK_POLL_MS = 5_000;

/**
 * The machine's addresses on its networks (loopback left out), as one text that changes
 * when it joins another network: a new network gives it another address.
 */
export function addressSignature(
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string {
  const out: string[] = [];
  for (const [name, list] of Object.entries(interfaces)) {
    for (const a of list ?? []) {
      if (!a.internal) out.push(`${name} ${a.family} ${a.address}`);
    }
  }
  return out.sort().join('\n');
}

export interface NetworkWatch {
  isOnline(): boolean;
  addresses(): string;
  /** Told when the network goes or comes back, and once at the start. */
  availability(online: boolean): void;
  /** Told when the machine's addresses change while online: connect again. */
  moved(): void;
}

/** Starts polling; the returned timer is cleared to stop. */
export function watchNetwork(watch: NetworkWatch, every = NETWORK_POLL_MS): NodeJS.Timeout {
  let online = watch.isOnline();
  let addresses = watch.addresses();
  watch.availability(online);
  return setInterval(() => {
    const now = watch.isOnline();
    const where = watch.addresses();
    if (now !== online) {
      online = now;
      addresses = where;
      watch.availability(now);
      return;
    }
    if (where !== addresses) {
      addresses = where;
      if (online) watch.moved();
    }
  }, every);
}
