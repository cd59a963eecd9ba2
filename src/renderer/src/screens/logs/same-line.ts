/**
 * The line of a stored log that a live log's line stands for. The live stream and the
 * stored `.build` file are not the same lines: the stream starts with the worker's own lines
 * (LiveLogInfo.sbuildStart counts them), a verbose sbuild prints lines into it that its log
 * file does not hold, and sbuild prints `E: Build failure` after its log file ends. So the
 * line number is only an estimate, and the line is found by its text near it.
 */
import type { BridgeClient } from '@shared/contract';
import { readLineTexts } from './log-actions';

/** Lines looked at on each side of the estimate. */
export const SAME_LINE_WINDOW = 200;

/**
 * The line with exactly `text` nearest to `estimate` among `lines`, whose first is line
 * `from`; the estimate itself when none has it. Of two as near, the earlier wins.
 */
export function nearestSameLine(
  text: string,
  estimate: number,
  from: number,
  lines: readonly string[],
): number {
  let best = estimate;
  let bestDistance = Infinity;
  lines.forEach((line, i) => {
    const distance = Math.abs(from + i - estimate);
    if (line === text && distance < bestDistance) {
      best = from + i;
      bestDistance = distance;
    }
  });
  return best;
}

/** Reads the lines around `estimate` from an open log, and finds `text` among them. */
export async function findSameLine(
  bridge: BridgeClient,
  handle: string,
  estimate: number,
  text: string,
): Promise<number> {
  const from = Math.max(0, estimate - SAME_LINE_WINDOW);
  const lines = await readLineTexts(bridge, handle, from, estimate + SAME_LINE_WINDOW);
  return nearestSameLine(text, estimate, from, lines);
}
