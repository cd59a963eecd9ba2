/**
 * The events held for a page that has not said it is ready (a window still loading, a
 * reload, a tab that never subscribes): bounded in number and in bytes, the newest kept.
 * Electron's windows and the web host's pages both hold theirs in an EventOutbox.
 */
import { describe, expect, it } from 'vitest';
import {
  EventHub,
  EventOutbox,
  MAX_QUEUED_BYTES,
  type EventMessage,
} from '../../src/main/bridge/event-outbox';

/** About the size of a completion event a hostile server made the app emit. */
const EVENT_BYTES = 60 * 1024;

describe('EventOutbox before the page is ready', () => {
  it('holds at most MAX_QUEUED_BYTES of events, the newest, and delivers them in order', () => {
    const delivered: EventMessage[] = [];
    const outbox = new EventOutbox((message) => delivered.push(message));
    const hub = new EventHub();
    hub.attach(outbox);
    const big = 'x'.repeat(EVENT_BYTES);
    let mostBytes = 0;
    for (let n = 0; n < 2_000; n++) {
      hub.emit('workRequests.changed', { big, n } as never);
      mostBytes = Math.max(mostBytes, outbox.pendingBytes);
    }
    // 2,000 such events are 118 MiB; the outbox held no more than its bound.
    expect(mostBytes).toBeLessThanOrEqual(MAX_QUEUED_BYTES);
    expect(outbox.pending).toBeGreaterThan(0);
    outbox.markReady();
    const numbers = delivered.map((m) => (m.payload as unknown as { n: number }).n);
    expect(numbers.at(-1)).toBe(1_999);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(outbox.pendingBytes).toBe(0);
    // Once ready, events go straight through, held nowhere.
    hub.emit('workRequests.changed', { big, n: 2_000 } as never);
    expect(outbox.pending).toBe(0);
    expect(delivered).toHaveLength(numbers.length + 1);
  });

  it('still holds small events up to its count', () => {
    const outbox = new EventOutbox(() => undefined);
    for (let n = 0; n < 1_500; n++) outbox.push('workRequests.changed', { n } as never);
    expect(outbox.pending).toBe(1_000);
  });
});
