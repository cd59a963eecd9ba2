/**
 * ProgressTracker keeps its totals as running sums. The events must be the ones a tracker
 * that sums every file at each event sends (the reference below), and a transfer of many
 * files must not walk its whole file list on each update.
 */
import { describe, expect, it, vi } from 'vitest';
import { fakeTimersInEachTest } from '../support/fake-timers';
import {
  ProgressTracker,
  type FileProgress,
  type ProgressEvent,
  type ProgressListener,
} from '../../src/main/artifacts/transfer/progress';

/** The tracker as it was: the totals summed over every file at each total event. */
class SummingTracker {
  readonly #files = new Map<
    string,
    { bytes: number; total: number; state: FileProgress['state'] }
  >();
  readonly #listener: ProgressListener;
  readonly #samples: { at: number; bytes: number }[] = [];
  readonly #lastEmit = new Map<string, number>();
  #transferred = 0;

  constructor(files: Iterable<[string, number]>, listener: ProgressListener) {
    for (const [path, total] of files) this.#files.set(path, { bytes: 0, total, state: 'active' });
    this.#listener = listener;
  }

  update(path: string, bytes: number, state: FileProgress['state'] = 'active'): void {
    const file = this.#files.get(path);
    if (!file) return;
    if (bytes > file.bytes) this.#transferred += bytes - file.bytes;
    file.bytes = bytes;
    file.state = state;
    const now = Date.now();
    const final = state !== 'active';
    if (!final && now - (this.#lastEmit.get(path) ?? 0) < 100) return;
    this.#lastEmit.set(path, now);
    this.#listener({ type: 'file', path, bytes, total: file.total, state });
    if (!final && now - (this.#lastEmit.get('') ?? 0) < 100) return;
    this.#lastEmit.set('', now);
    this.#samples.push({ at: now, bytes: this.#transferred });
    while (this.#samples.length > 2 && (this.#samples[0]?.at ?? now) < now - 5000) {
      this.#samples.shift();
    }
    const first = this.#samples[0];
    const elapsed = first ? (now - first.at) / 1000 : 0;
    const speed = first && elapsed > 0 ? (this.#transferred - first.bytes) / elapsed : 0;
    let sum = 0;
    let total = 0;
    let filesDone = 0;
    for (const f of this.#files.values()) {
      sum += f.bytes;
      total += f.total;
      if (f.state === 'done' || f.state === 'skipped') filesDone++;
    }
    const eta = speed > 0 ? (total - sum) / speed : sum >= total ? 0 : null;
    const filesTotal = this.#files.size;
    this.#listener({ type: 'total', bytes: sum, total, filesDone, filesTotal, speed, eta });
  }
}

type Step = [advanceMs: number, path: string, bytes: number, state?: FileProgress['state']];

/** The events each tracker sends for the same steps, on the same clock. */
function eventsOf(files: [string, number][], steps: Step[]): ProgressEvent[][] {
  const runs: ProgressEvent[][] = [];
  for (const make of [
    (l: ProgressListener) => new ProgressTracker(files, l),
    (l: ProgressListener) => new SummingTracker(files, l),
  ]) {
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    const events: ProgressEvent[] = [];
    const tracker = make((event) => events.push(event));
    for (const [advance, path, bytes, state] of steps) {
      vi.advanceTimersByTime(advance);
      tracker.update(path, bytes, state);
    }
    runs.push(events);
  }
  return runs;
}

fakeTimersInEachTest();

describe('ProgressTracker sends the events a tracker that sums every file sends', () => {
  it('for files that progress, fail and go back, are skipped, and finish', () => {
    const files: [string, number][] = [
      ['a.dsc', 1_000],
      ['b.tar.xz', 50_000],
      ['c.deb', 20_000],
      ['d.buildinfo', 500],
    ];
    const [tracked, summed] = eventsOf(files, [
      [0, 'a.dsc', 400],
      [10, 'a.dsc', 800], // within 100 ms of the last event: dropped
      [150, 'a.dsc', 1_000, 'done'],
      [0, 'd.buildinfo', 500, 'skipped'],
      [200, 'b.tar.xz', 30_000],
      [50, 'c.deb', 5_000],
      [300, 'b.tar.xz', 10_000, 'failed'], // the connection broke: back to what was confirmed
      [100, 'b.tar.xz', 10_000],
      [1_000, 'b.tar.xz', 50_000, 'done'],
      [6_000, 'c.deb', 20_000], // past the speed window
      [0, 'no-such-file', 10], // not a file of the transfer: ignored
      [10, 'c.deb', 20_000, 'done'],
    ]);
    expect(tracked).toEqual(summed);
    expect(tracked?.at(-1)).toEqual({
      type: 'total',
      bytes: 71_500,
      total: 71_500,
      filesDone: 4,
      filesTotal: 4,
      speed: expect.any(Number) as number,
      eta: 0,
    });
  });

  it('for a file done, then sent again (a retry), and a path listed twice', () => {
    const files: [string, number][] = [
      ['x', 10],
      ['y', 20],
      ['x', 30],
    ];
    const [tracked, summed] = eventsOf(files, [
      [0, 'x', 30, 'done'],
      [200, 'x', 0],
      [200, 'x', 15],
      [0, 'y', 20, 'skipped'],
      [200, 'x', 30, 'done'],
    ]);
    expect(tracked).toEqual(summed);
    expect(tracked?.filter((e) => e.type === 'total').map((e) => e.filesDone)).toEqual([
      1, 0, 0, 1, 2,
    ]);
    expect(tracked?.at(-1)).toMatchObject({ type: 'total', total: 50, filesTotal: 2 });
  });
});

describe('ProgressTracker with 100,000 files', () => {
  const FILES = 100_000;
  const WALKS = ['values', 'keys', 'entries', 'forEach', Symbol.iterator] as const;

  /** Counts the calls that start a walk over any Map while `run` runs. */
  function countMapWalks(run: () => void): number {
    let walks = 0;
    const proto = Map.prototype as unknown as Record<string | symbol, unknown>;
    const originals = WALKS.map((name) => [name, proto[name]] as const);
    for (const [name, original] of originals) {
      proto[name] = function (this: Map<unknown, unknown>, ...args: unknown[]) {
        walks++;
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
    try {
      run();
    } finally {
      for (const [name, original] of originals) proto[name] = original;
    }
    return walks;
  }

  it('walks no file list while each file is finished once, and ends with the right totals', () => {
    const files = Array.from({ length: FILES }, (_, i): [string, number] => [`f${String(i)}`, 3]);
    const totals: ProgressEvent[] = [];
    let fileEvents = 0;
    const tracker = new ProgressTracker(files, (event) => {
      if (event.type === 'file') fileEvents++;
      else totals.push(event);
    });
    const walks = countMapWalks(() => {
      for (let i = 0; i < FILES; i++) tracker.update(`f${String(i)}`, 3, 'done');
    });
    // The summing tracker walked the 100,000 files at each of the 100,000 total events.
    expect(walks).toBe(0);
    expect(fileEvents).toBe(FILES);
    expect(totals).toHaveLength(FILES);
    expect(totals.at(-1)).toMatchObject({
      type: 'total',
      bytes: 3 * FILES,
      total: 3 * FILES,
      filesDone: FILES,
      filesTotal: FILES,
      eta: 0,
    });
  });

  it('the walk counter sees the summing tracker walk its files at every event', () => {
    const files = Array.from({ length: 100 }, (_, i): [string, number] => [`f${String(i)}`, 3]);
    const tracker = new SummingTracker(files, () => undefined);
    const walks = countMapWalks(() => {
      for (let i = 0; i < 100; i++) tracker.update(`f${String(i)}`, 3, 'done');
    });
    expect(walks).toBe(100);
  });
});
