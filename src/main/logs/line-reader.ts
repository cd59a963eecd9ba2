/**
 * Reading lines of an indexed file as text: runs of short lines in one read and one
 * decode each, and a long line by its first LINE_LIMIT bytes only, however long it is.
 *
 * Runs are of RUN_SPAN bytes at most, through one buffer: V8 keeps strings this small in
 * its young generation, where they are collected within milliseconds. With runs of 4 MiB
 * (one large object each) a search over 100 MB left some 100 MB of dead strings waiting
 * for a full collection, and the process grew by as much; the thousand reads instead of
 * 25 cost about 50 ms.
 * Lines come out exactly as a viewer shows them (see line-text.ts): searching and the
 * sbuild analysis read them through here too, so they see what the user sees.
 */
import type { FileHandle } from 'node:fs/promises';
import type { LogLine } from '../../shared/log-types';
import type { LineIndex } from './line-index';
import { LINE_LIMIT, cleanText, cutPoint, decode } from './line-text';

/**
 * A run of consecutive lines as one text, each as shown, joined by LF (which no line
 * shown contains): `count` lines from line `first`. `cut` is set for a run of one line
 * cut short: its full length in bytes.
 */
export interface Run {
  text: string;
  first: number;
  count: number;
  cut: number | null;
}

/** Under V8's 128 KiB limit for young objects, and above LINE_LIMIT, so a line fits. */
export const RUN_SPAN = 96 * 1024;

/** Called per line; return false to stop. `cut`: null, or the full length in bytes. */
export type EachLine = (text: string, line: number, cut: number | null) => boolean | undefined;

/**
 * Reads `length` bytes at `position` (into `into` when given, which must be large enough);
 * the file must have them (the index says it does).
 */
export async function readAt(
  file: FileHandle,
  position: number,
  length: number,
  into?: Buffer,
): Promise<Buffer> {
  const buffer = into ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await file.read(buffer, got, length - got, position + got);
    if (bytesRead === 0) {
      throw new Error(`the file ends at byte ${String(position + got)}, before the line does`);
    }
    got += bytesRead;
  }
  return buffer;
}

/** The length of the end of line that closes `tail` (the last bytes of a line): 0, 1 or 2. */
function endLength(tail: Buffer): number {
  const last = tail[tail.length - 1];
  if (last === 10) return tail.length > 1 && tail[tail.length - 2] === 13 ? 2 : 1;
  return last === 13 ? 1 : 0;
}

async function readLongLine(
  file: FileHandle,
  index: LineIndex,
  line: number,
  scratch: Buffer,
): Promise<Run> {
  const start = index.start(line);
  const total = index.next(line) - start;
  const head = await readAt(file, start, Math.min(total, LINE_LIMIT + 4), scratch);
  const tail = total <= head.length ? head : await readAt(file, start + total - 2, 2);
  const length = total - endLength(tail);
  const whole = length <= LINE_LIMIT;
  const bytes = head.subarray(0, whole ? length : cutPoint(head));
  return { text: cleanText(decode(bytes)), first: line, count: 1, cut: whole ? null : length };
}

/**
 * The text of whole lines whose bytes (ends of line included) were decoded into `decoded`:
 * every end of line made one LF, the last one dropped, the whole cleaned at once.
 */
function runText(decoded: string): string {
  const unified = decoded.includes('\r') ? decoded.replace(/\r\n?/g, '\n') : decoded;
  return cleanText(unified.endsWith('\n') ? unified.slice(0, -1) : unified);
}

/**
 * Reads lines `from` to `to` (excluded) as runs, in order; `each` returns false to stop.
 * Returns the number of lines read.
 */
export async function readRuns(
  file: FileHandle,
  index: LineIndex,
  from: number,
  to: number,
  each: (run: Run) => boolean | undefined,
): Promise<number> {
  const scratch = Buffer.allocUnsafe(RUN_SPAN);
  let line = from;
  while (line < to) {
    const end = index.runEnd(line, to, RUN_SPAN, LINE_LIMIT);
    let run: Run;
    if (end === line) {
      run = await readLongLine(file, index, line, scratch);
    } else {
      const start = index.start(line);
      const decoded = decode(await readAt(file, start, index.next(end - 1) - start, scratch));
      run = { text: runText(decoded), first: line, count: end - line, cut: null };
    }
    line += run.count;
    if (each(run) === false) break;
  }
  return line - from;
}

/** Reads lines `from` to `to` (excluded) one by one; `each` returns false to stop. */
export async function readLines(
  file: FileHandle,
  index: LineIndex,
  from: number,
  to: number,
  each: EachLine,
): Promise<number> {
  let given = 0;
  await readRuns(file, index, from, to, (run) => {
    const lines = run.count === 1 ? [run.text] : run.text.split('\n');
    for (let k = 0; k < lines.length; k++) {
      given++;
      if (each(lines[k] ?? '', run.first + k, run.cut) === false) return false;
    }
    return undefined;
  });
  return given;
}

/** The most text one window carries, whatever the number of lines asked for. */
const WINDOW_BUDGET = 2 * 2 ** 20;

/**
 * A window of lines `from` to `to` (excluded) for the viewer, as shown: it stops early
 * once WINDOW_BUDGET of text is in it, so a window of long lines stays small.
 */
export async function readWindow(
  file: FileHandle,
  index: LineIndex,
  from: number,
  to: number,
): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  let budget = WINDOW_BUDGET;
  await readLines(file, index, from, to, (text, _line, cut) => {
    lines.push({ text, cut });
    budget -= text.length;
    return budget > 0;
  });
  return lines;
}
