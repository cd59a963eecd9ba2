/**
 * Problems of the completion watcher and router that answer no request (a completion
 * arrives on its own). Node's EventEmitter throws an 'error' that nobody listens to; inside
 * the completion queue that became a rejection nobody awaited, which ends the process. So
 * a problem goes to the 'error' listeners when there are any, and to the log otherwise.
 */
import type { DebusineError } from '../../shared/errors';

/** The part of an EventEmitter with an `error: [DebusineError]` event that this needs. */
interface ErrorEmitter {
  listenerCount(event: 'error'): number;
  emit(event: 'error', error: DebusineError): boolean;
}

export function reportProblem(emitter: ErrorEmitter, error: DebusineError): void {
  if (emitter.listenerCount('error') > 0) emitter.emit('error', error);
  else console.warn(`Notifications: ${error.message}`);
}
