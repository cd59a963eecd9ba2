import { execFileSync } from 'node:child_process';
import { DebusineClient } from '../../src/main/api/client';
import type { Measurement, Target } from './report';
import type { BenchServer } from './server';
import { measure, stats, type Stats } from './stats';

export interface Sizes {
  bigFile: number;
  smallFiles: number;
  smallFileSize: number;
  origTarball: number;
  downloadFiles: number;
  downloadFileSize: number;
  hashFile: number;
  workRequests: number;
  rssUpload: number;
  /** Completions replayed after an outage. */
  replay: number;
  /** The build log the log viewer opens (bench/scenarios/logs.ts). */
  buildLog: number;
  /** The huge log of millions of lines, for jumps and searches (bench/lib/huge-log.ts). */
  hugeLog: number;
}

export const FULL: Sizes = {
  bigFile: 512 * 2 ** 20,
  smallFiles: 50,
  smallFileSize: 200_000,
  origTarball: 40 * 2 ** 20,
  downloadFiles: 30,
  downloadFileSize: 2 * 2 ** 20,
  hashFile: 2 ** 30,
  workRequests: 2000,
  rssUpload: 2 ** 30,
  replay: 1000,
  buildLog: 100 * 2 ** 20,
  hugeLog: 200_000_000,
};

export const QUICK: Sizes = {
  bigFile: 64 * 2 ** 20,
  smallFiles: 20,
  smallFileSize: 200_000,
  origTarball: 8 * 2 ** 20,
  downloadFiles: 10,
  downloadFileSize: 2 ** 20,
  hashFile: 128 * 2 ** 20,
  workRequests: 500,
  rssUpload: 128 * 2 ** 20,
  replay: 200,
  buildLog: 10 * 2 ** 20,
  hugeLog: 20_000_000,
};

export class BenchContext {
  readonly measurements: Measurement[] = [];
  readonly targets: Target[] = [];
  readonly notes: string[] = [];
  readonly client: DebusineClient;

  constructor(
    readonly server: BenchServer,
    readonly runs: number,
    readonly sizes: Sizes,
    readonly quick: boolean,
  ) {
    this.client = new DebusineClient({
      apiUrl: server.apiUrl,
      token: server.token,
      scope: server.scope,
    });
  }

  log(message: string): void {
    process.stderr.write(`[bench] ${message}\n`);
  }

  /** Measures one subject of a scenario and records it. */
  async measure<P>(
    scenario: string,
    subject: string,
    prepare: (index: number) => Promise<P>,
    run: (prepared: P, index: number) => Promise<void> | void,
    extra: { bytes?: number; note?: string; runs?: number } = {},
  ): Promise<Stats> {
    const stats = await measure(extra.runs ?? this.runs, prepare, run);
    this.record({ scenario, subject, stats, bytes: extra.bytes, note: extra.note });
    return stats;
  }

  /** Measures a subject whose runs need no preparation. */
  async time(
    scenario: string,
    subject: string,
    run: () => unknown,
    extra: { bytes?: number; note?: string } = {},
  ): Promise<Stats> {
    const none = () => Promise.resolve();
    return this.measure(
      scenario,
      subject,
      none,
      async () => {
        await run();
      },
      extra,
    );
  }

  /**
   * Measures several subjects of one scenario in rounds (each subject once per round, in
   * turn), so that a slow spell of the shared machine or of the server's disk falls on all
   * of them rather than on whichever ran then. Each run starts after `sync`, so that no
   * subject pays for the writeback of the previous one's data.
   */
  async measureRounds<P>(
    scenario: string,
    subjects: readonly {
      subject: string;
      run: (prepared: P, index: number) => Promise<void> | void;
      bytes?: number;
      note?: string;
    }[],
    prepare: (index: number) => Promise<P>,
  ): Promise<void> {
    const samples = subjects.map(() => [] as number[]);
    for (let round = 0; round < this.runs; round++) {
      for (const [i, subject] of subjects.entries()) {
        const prepared = await prepare(round);
        execFileSync('sync');
        const start = process.hrtime.bigint();
        await subject.run(prepared, round);
        samples[i]?.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    for (const [i, subject] of subjects.entries()) {
      this.record({
        scenario,
        subject: subject.subject,
        stats: stats(samples[i] ?? []),
        bytes: subject.bytes,
        note: subject.note,
      });
    }
  }

  record(m: Measurement): void {
    const { bytes, note, ...rest } = m;
    this.measurements.push({
      ...rest,
      ...(bytes !== undefined ? { bytes } : {}),
      ...(note !== undefined ? { note } : {}),
    });
    const s = m.stats;
    this.log(
      `${m.scenario} / ${m.subject}: median ${s.medianMs.toFixed(1)} ms (min ${s.minMs.toFixed(1)}, max ${s.maxMs.toFixed(1)})`,
    );
  }

  median(scenario: string, subject: string): number {
    const m = this.measurements.find((x) => x.scenario === scenario && x.subject === subject);
    if (!m) throw new Error(`no measurement ${scenario} / ${subject}`);
    return m.stats.medianMs;
  }

  /** A target on a ratio or a value: `met` is `value <= max` or `value >= min`. */
  target(
    scenario: string,
    description: string,
    value: number,
    bound: { max?: number; min?: number; text: string },
  ): void {
    const met =
      (bound.max === undefined || value <= bound.max) &&
      (bound.min === undefined || value >= bound.min);
    this.targets.push({ scenario, description, value, bound: bound.text, met });
    this.log(
      `target ${description}: ${value.toFixed(2)} (${bound.text}) ${met ? 'met' : 'MISSED'}`,
    );
  }
}
