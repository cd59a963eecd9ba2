/** Timing statistics over repeated runs: min, median and max, in milliseconds. */
export interface Stats {
  runs: number;
  minMs: number;
  medianMs: number;
  maxMs: number;
  samplesMs: number[];
}

export function stats(samplesMs: readonly number[]): Stats {
  if (samplesMs.length === 0) throw new Error('no samples');
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[mid] ?? 0)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return {
    runs: sorted.length,
    minMs: sorted[0] ?? 0,
    medianMs: median,
    maxMs: sorted[sorted.length - 1] ?? 0,
    samplesMs: [...samplesMs],
  };
}

/**
 * Runs `prepare` (untimed) then `run` (timed) `runs` times. Preparation makes each run's
 * data unique where the server would otherwise deduplicate it.
 */
export async function measure<P>(
  runs: number,
  prepare: (index: number) => Promise<P>,
  run: (prepared: P, index: number) => Promise<void> | void,
): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const prepared = await prepare(i);
    const start = process.hrtime.bigint();
    await run(prepared, i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return stats(samples);
}
