/**
 * When the router reads workflows to find the ends no completion tells: a root a few times
 * after its step completed, then never again once it has ended; the watch list on a timer
 * that doubles while nothing changes and comes back to its first interval when something
 * does. The clock is faked.
 */
import { describe, expect, it, vi } from 'vitest';
import { EndChecks } from '../../src/main/watch/end-checks';
import { fakeTimersInEachTest } from '../support/fake-timers';

fakeTimersInEachTest();

// A root's reads are made on the turn after their delay (roots due together are read
// together), hence the few milliseconds past each delay below.
describe('reading a root after its step completed', () => {
  it('reads at each delay while it runs, stops once it has ended, and groups roots due together', async () => {
    const reads: number[][] = [];
    let ended = new Set<number>();
    const checks = new EndChecks({
      checkRoots: (ids) => {
        reads.push(ids);
        return Promise.resolve(ids.filter((id) => ended.has(id)));
      },
      sweep: () => Promise.resolve(false),
      onError: () => undefined,
      rootDelaysMs: [1_000, 10_000, 60_000],
    });
    checks.afterStep(30);
    checks.afterStep(40);
    await vi.advanceTimersByTimeAsync(1_010);
    expect(reads).toEqual([[30, 40]]);
    ended = new Set([40]);
    await vi.advanceTimersByTimeAsync(10_010);
    expect(reads).toEqual([
      [30, 40],
      [30, 40],
    ]);
    // 40 has ended: only 30 is read at the last delay, and nothing after it.
    await vi.advanceTimersByTimeAsync(60_010);
    expect(reads).toEqual([[30, 40], [30, 40], [30]]);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(reads).toHaveLength(3);
    await checks.close();
  });

  it('a step completing again starts the reads over; a failed read is made again later', async () => {
    const reads: number[] = [];
    let fail = true;
    const errors: unknown[] = [];
    const checks = new EndChecks({
      checkRoots: (ids) => {
        reads.push(...ids);
        if (fail) return Promise.reject(new Error('down'));
        return Promise.resolve(ids);
      },
      sweep: () => Promise.resolve(false),
      onError: (e) => errors.push(e),
      rootDelaysMs: [1_000, 10_000],
    });
    checks.afterStep(30);
    await vi.advanceTimersByTimeAsync(1_010);
    expect(errors).toHaveLength(1);
    fail = false;
    await vi.advanceTimersByTimeAsync(10_010);
    expect(reads).toEqual([30, 30]);
    checks.afterStep(30);
    await vi.advanceTimersByTimeAsync(1_010);
    expect(reads).toEqual([30, 30, 30]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toHaveLength(3);
    await checks.close();
  });
});

describe('the sweep of the watch list', () => {
  it('doubles its interval while nothing changes, up to the most, and starts over on activity', async () => {
    const at: number[] = [];
    let changed = false;
    const start = Date.now();
    const checks = new EndChecks({
      checkRoots: () => Promise.resolve([]),
      sweep: () => {
        at.push(Date.now() - start);
        return Promise.resolve(changed);
      },
      onError: () => undefined,
      sweepFirstMs: 60_000,
      sweepMaxMs: 240_000,
    });
    // Nothing is swept before anything happens.
    await vi.advanceTimersByTimeAsync(600_000);
    expect(at).toEqual([]);
    checks.activity();
    await vi.advanceTimersByTimeAsync(60_000 + 120_000 + 240_000 + 240_000);
    expect(at).toEqual([660_000, 780_000, 1_020_000, 1_260_000]);
    // Something changed at a sweep: the next comes at the first interval again.
    changed = true;
    await vi.advanceTimersByTimeAsync(240_000);
    changed = false;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(at.slice(-2)).toEqual([1_500_000, 1_560_000]);
    await checks.close();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(at).toHaveLength(6);
  });
});
