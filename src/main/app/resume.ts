/**
 * After the computer sleeps, the notification socket may look open on this side while the
 * server dropped it long ago (a half-open connection): completions would be missed until
 * the heartbeat noticed. powerMonitor's `resume` ("Emitted when system is resuming.") is
 * the moment to connect again and catch up.
 *
 * Electron's main process has no event for a change of network (powerMonitor has none,
 * and `online`/`offline` are the renderer's `navigator` events); main.ts polls
 * `net.isOnline()` for the network coming and going, and a change from one network to
 * another is left to the heartbeat.
 */
import { powerMonitor } from 'electron';

/** Calls `reconnect` each time the system resumes. Only after `ready`, as powerMonitor needs. */
export function reconnectOnResume(reconnect: () => void): void {
  powerMonitor.on('resume', () => {
    console.log('The system resumed: reconnecting.');
    reconnect();
  });
}
