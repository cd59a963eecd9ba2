import { CallerScope } from '../../src/main/bridge/caller';
import type { EventChannel, EventPayload } from '../../src/shared/contract';

/**
 * A renderer for tests that call the service's handlers directly: it holds what they open,
 * and keeps the events sent to it alone.
 */
export function testCaller(): CallerScope & {
  events: { event: EventChannel; payload: unknown }[];
} {
  const events: { event: EventChannel; payload: unknown }[] = [];
  const scope = new CallerScope(<E extends EventChannel>(event: E, payload: EventPayload<E>) => {
    events.push({ event, payload });
  });
  return Object.assign(scope, { events });
}
