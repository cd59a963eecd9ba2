/**
 * The stored log's line for a live log's line, over a real sbuild log (ddt-broken's, from
 * the project's sandbox): the stream as the worker sends it is that log with the worker's
 * own lines before it, lines a verbose sbuild prints that its log file does not hold, and
 * sbuild's `E: Build failure` after it. Every line of the stream that is in the file is
 * found there by its text, from the estimate that only subtracts the worker's lines.
 */
import { describe, expect, it } from 'vitest';
import {
  LINES_BEFORE,
  nearestSameLine,
  sameLine,
  SAME_LINE_WINDOW,
} from '@renderer/screens/logs/same-line';
import broken from '../fixtures/real-work/ddt-broken-failed.build?raw';

const stored = broken.replace(/\n$/, '').split('\n');

const WORKER = [
  'Executing sbuild task',
  'Preparing the build environment',
  'Running sbuild --no-clean --arch=amd64 ddt-broken_1.0.dsc',
];

/**
 * The stream: the worker's lines, then the file with 13 lines of a verbose sbuild's own
 * before the Build section (the count the stream and the file differ by on the sandbox),
 * then what sbuild prints once its log file is closed. Each line says which stored line it
 * is, or null.
 */
function stream(): { text: string; stored: number | null }[] {
  const build = stored.findIndex((line) => line.startsWith('| Build '));
  expect(build).toBeGreaterThan(0);
  const out: { text: string; stored: number | null }[] = WORKER.map((text) => ({
    text,
    stored: null,
  }));
  stored.forEach((text, i) => {
    if (i === build - 1) {
      for (let k = 0; k < 13; k++)
        out.push({ text: `I: verbose output ${String(k)}`, stored: null });
    }
    out.push({ text, stored: i });
  });
  // As sbuild prints it in its log's cleanup: the stored log has this text too, earlier.
  const failure = 'E: Build failure (dpkg-buildpackage died with exit 2)';
  expect(stored).toContain(failure);
  out.push({ text: failure, stored: null });
  return out;
}

describe('the stored line of a live line', () => {
  const live = stream();
  const sbuildStart = WORKER.length;
  const find = (liveLine: number): number => {
    const text = live[liveLine]?.text ?? '';
    const estimate = Math.max(0, liveLine - sbuildStart);
    const from = Math.max(0, estimate - SAME_LINE_WINDOW);
    return (
      nearestSameLine(text, estimate, from, stored.slice(from, estimate + SAME_LINE_WINDOW + 1)) ??
      estimate
    );
  };

  it('is a line with the same text, for every line of the stream the file holds', () => {
    let exact = 0;
    live.forEach((line, liveLine) => {
      if (line.stored === null) return;
      const found = find(liveLine);
      expect(stored[found]).toBe(line.text);
      if (found === line.stored) exact++;
    });
    // Lines whose text the file has once are found at their own place.
    const once = live.filter(
      (line) => line.stored !== null && stored.indexOf(line.text) === stored.lastIndexOf(line.text),
    );
    for (const line of once) {
      expect(find(live.indexOf(line))).toBe(line.stored);
    }
    expect(once.length).toBeGreaterThan(100);
    expect(exact).toBeGreaterThanOrEqual(once.length);
  });

  it('is 13 lines before the estimate after the lines the file does not hold', () => {
    const failed = live.findIndex(
      (line) => line.text.includes('debian/rules:') && line.stored !== null,
    );
    expect(failed).toBeGreaterThan(0);
    const line = live[failed];
    expect(line?.stored).toBe(failed - sbuildStart - 13);
    expect(find(failed)).toBe(line?.stored);
  });

  it("is the last line of the file for sbuild's last line, printed after the file ends", () => {
    // The newest line of a failed build's stream, where a followed live view ends.
    const last = live.length - 1;
    expect(live[last]?.text).toMatch(/^E: Build failure/);
    const from = Math.max(0, last - sbuildStart - SAME_LINE_WINDOW);
    const texts = live.slice(last - LINES_BEFORE, last + 1).map((line) => line.text);
    // The line after the file's last, which the viewer shows as its last (not the same
    // text in the log's cleanup, further from where it should be).
    expect(sameLine(texts, last - sbuildStart, from, stored.slice(from))).toBe(stored.length);
  });

  it('is the estimate when neither the line nor those before it are in the file', () => {
    expect(sameLine(['not', 'there'], 50, 0, stored)).toBe(50);
  });

  it('is the line after the one before it, for a line the file has not or a blank one', () => {
    const lines = ['a', 'b', '', 'c', 'd'];
    // "x" is not in the file: after "b", found where it should be.
    expect(sameLine(['a', 'b', 'x'], 2, 0, lines)).toBe(2);
    // A blank line is placed by the line before it, not by the nearest blank.
    expect(sameLine(['c', ''], 4, 0, lines)).toBe(4);
    // The line itself, found as near as those before it.
    expect(sameLine(['b', '', 'c'], 3, 0, lines)).toBe(3);
  });

  it('is the nearest of several lines with that text, the earlier of two as near, or none', () => {
    const lines = ['a', 'x', 'b', 'c', 'x', 'd', 'e', 'x'];
    expect(nearestSameLine('x', 12, 10, lines)).toBe(11);
    expect(nearestSameLine('x', 16, 10, lines)).toBe(17);
    expect(nearestSameLine('x', 13, 10, ['x', '', '', '', '', '', 'x'])).toBe(10);
    expect(nearestSameLine('y', 16, 10, lines)).toBeNull();
  });
});
