/**
 * The line of a stored log that a live log's line stands for. The live stream and the
 * stored `.build` file are not the same lines: the stream starts with the worker's own lines
 * (LiveLogInfo.sbuildStart counts them), a verbose sbuild prints lines into it that its log
 * file does not hold, and sbuild prints `E: Build failure` after its log file ends. So the
 * line number is only an estimate, and the line is found by its text near it, and by the
 * texts of the lines before it (sameLine).
 */
import type { BridgeClient } from '@shared/contract';
import { readLineTexts } from './log-actions';

/** Lines looked at on each side of the estimate. */
export const SAME_LINE_WINDOW = 200;

/** Lines before the one asked for whose text is passed on, for a line the file has not. */
export const LINES_BEFORE = 20;

/**
 * The line with exactly `text` nearest to `estimate` among `lines`, whose first is line
 * `from`; null when none has it. Of two as near, the earlier wins.
 */
export function nearestSameLine(
  text: string,
  estimate: number,
  from: number,
  lines: readonly string[],
): number | null {
  let best: number | null = null;
  for (const [i, line] of lines.entries()) {
    const at = from + i;
    if (line !== text) continue;
    if (best === null || Math.abs(at - estimate) < Math.abs(best - estimate)) best = at;
  }
  return best;
}

/**
 * The line that the last of `texts` stands for, `texts` being the text of a line and of
 * those before it, in order, and `estimate` where that last line should be. A line before
 * it found k lines up stands for the line k below it, so that a line the file has not (or
 * a blank one, which says nothing of its place) is placed after the nearest before it that
 * the file has. Of the lines found, the nearest to where it should be wins, each line
 * further up counting as one further away: the line itself when it is found as near as
 * the lines before it (sbuild prints `E: Build failure` both in its log's cleanup and
 * after the log ends, where the lines before it place it at the end). The estimate itself
 * when none is found.
 */
export function sameLine(
  texts: readonly string[],
  estimate: number,
  from: number,
  lines: readonly string[],
): number {
  let best = estimate;
  let bestCost = Infinity;
  for (let back = 0; back < texts.length && back < bestCost; back++) {
    const text = texts[texts.length - 1 - back];
    if (text === undefined || text.trim() === '') continue;
    const found = nearestSameLine(text, estimate - back, from, lines);
    if (found === null) continue;
    const cost = Math.abs(found - (estimate - back)) + back;
    if (cost < bestCost) {
      best = found + back;
      bestCost = cost;
    }
  }
  return best;
}

/** Reads the lines around `estimate` from an open log, and finds there the line `texts` end with. */
export async function findSameLine(
  bridge: BridgeClient,
  handle: string,
  estimate: number,
  texts: readonly string[],
): Promise<number> {
  const from = Math.max(0, estimate - SAME_LINE_WINDOW);
  const lines = await readLineTexts(bridge, handle, from, estimate + SAME_LINE_WINDOW);
  return sameLine(texts, estimate, from, lines);
}
