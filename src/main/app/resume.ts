/**
 * After the computer sleeps, the notification socket may look open on this side while the
 * server dropped it long ago (a half-open connection): completions would be missed until
 * the heartbeat noticed. powerMonitor's `resume` ("Emitted when system is resuming.") is
 * the moment to connect again and catch up.
 *
 * A move to another network does the same to the socket; network-watch.ts notices that.
 */
import { powerMonitor } from 'electron';

/** Calls `reconnect` each time the system resumes. Only after `ready`, as powerMonitor needs. */
export function reconnectOnResume(reconnect: () => void): void {
  powerMonitor.on('resume', () => {
    console.log('The system resumed: reconnecting.');
    reconnect();
  });
}
