/**
 * What an Electron window's page was sent and has not taken: bounded in number and in
 * bytes, freed only by what the page says it took, and never below nothing.
 */
import { describe, expect, it } from 'vitest';
import type { EventMessage } from '../../src/main/bridge/event-outbox';
import { UnackedEvents } from '../../src/main/bridge/unacked-events';

const event = (n: number, pad = 0): EventMessage =>
  ({ event: 'workRequests.changed', payload: { n, pad: 'x'.repeat(pad) } }) as never;

describe('UnackedEvents', () => {
  it('admits up to its count, then falls behind once, and admits nothing until reset', () => {
    let behind = 0;
    const owed = new UnackedEvents(() => behind++, { events: 10, bytes: 1 << 20 });
    const admitted = Array.from({ length: 15 }, (_, n) => owed.admit(event(n)));
    expect(admitted.filter(Boolean)).toHaveLength(10);
    expect(behind).toBe(1);
    // Taking events does not bring back a page that fell behind: what it missed is lost to
    // it, so only a new page (a reload) may be sent events again.
    owed.ack(10);
    expect(owed.admit(event(16))).toBe(false);
    expect(behind).toBe(1);
    owed.reset();
    expect(owed.fellBehind).toBe(false);
    expect(owed.count).toBe(0);
    expect(owed.admit(event(17))).toBe(true);
  });

  it('holds at most its bytes of 60 KiB events, whatever their number', () => {
    const bytes = 8 * 1024 * 1024;
    let behind = 0;
    const owed = new UnackedEvents(() => behind++, { events: 5_000, bytes });
    let admitted = 0;
    for (let n = 0; n < 2_000; n++) if (owed.admit(event(n, 60 * 1024))) admitted++;
    expect(owed.pendingBytes).toBeLessThanOrEqual(bytes);
    expect(admitted).toBe(Math.floor(bytes / JSON.stringify(event(0, 60 * 1024)).length));
    expect(behind).toBe(1);
  });

  it('frees what the page took, oldest first, and no more than it was sent', () => {
    const owed = new UnackedEvents(() => undefined, { events: 100, bytes: 1 << 20 });
    for (let n = 0; n < 5; n++) owed.admit(event(n, n * 100));
    const total = owed.pendingBytes;
    owed.ack(2);
    expect(owed.count).toBe(3);
    expect(owed.pendingBytes).toBe(
      total - JSON.stringify(event(0, 0)).length - JSON.stringify(event(1, 100)).length,
    );
    // A page that claims more than it was sent frees what it was sent, and owes nothing.
    owed.ack(1e12);
    expect(owed.count).toBe(0);
    expect(owed.pendingBytes).toBe(0);
    // …and cannot bank credit for later: the next events count from nothing.
    for (let n = 0; n < 100; n++) expect(owed.admit(event(n))).toBe(true);
    expect(owed.admit(event(100))).toBe(false);
  });

  it('ignores acknowledgements that are not whole positive counts', () => {
    const owed = new UnackedEvents(() => undefined, { events: 100, bytes: 1 << 20 });
    for (let n = 0; n < 5; n++) owed.admit(event(n));
    for (const lie of ['3', -2, 0, 1.5, Number.NaN, Infinity, null, undefined, { length: 3 }]) {
      owed.ack(lie);
    }
    expect(owed.count).toBe(5);
  });

  it('keeps its record small over a long session of taken events', () => {
    const owed = new UnackedEvents(() => undefined, { events: 100, bytes: 1 << 20 });
    for (let n = 0; n < 100_000; n++) {
      owed.admit(event(n));
      if (n % 10 === 9) owed.ack(10);
    }
    expect(owed.count).toBe(0);
    expect(owed.pendingBytes).toBe(0);
    expect((owed as unknown as { sizes: number[] }).sizes.length).toBeLessThan(2_100);
  });
});
