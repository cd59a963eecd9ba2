/**
 * The lines of an open log the renderer holds: a few fixed windows of lines, the ones used
 * last. A log may have millions of lines and main keeps the file, so the renderer never
 * holds more than `maxWindows × WINDOW_LINES` lines, whatever was scrolled through.
 */
import type { LogLine, LogWindow } from '@shared/log-types';

/** Lines per window: about ten screens of a dense view, one request each. */
export const WINDOW_LINES = 200;

/** Windows kept: what is on screen, around it, and a little of where the user just was. */
export const MAX_WINDOWS = 12;

interface Held {
  lines: LogLine[];
  /** Lines that could be read when the window was read: a short window grows after it. */
  totalLines: number;
}

export class LogWindowCache {
  /** In use order: the first entry was used longest ago (Map keeps insertion order). */
  private readonly windows = new Map<number, Held>();

  constructor(readonly maxWindows = MAX_WINDOWS) {}

  /** The window that holds `line`. */
  static windowOf(line: number): number {
    return Math.floor(line / WINDOW_LINES);
  }

  line(line: number): LogLine | undefined {
    const index = LogWindowCache.windowOf(line);
    return this.windows.get(index)?.lines[line - index * WINDOW_LINES];
  }

  /**
   * Whether window `index` must be read: it is not held, or it was short (the file was
   * still arriving, or main's byte budget cut it) and more lines can be read now.
   */
  needs(index: number, totalLines: number): boolean {
    const held = this.windows.get(index);
    if (!held) return true;
    const wanted = Math.min(WINDOW_LINES, totalLines - index * WINDOW_LINES);
    return held.lines.length < wanted && totalLines > held.totalLines;
  }

  /** Marks window `index` as used now, so that it is dropped last. */
  touch(index: number): void {
    const held = this.windows.get(index);
    if (!held) return;
    this.windows.delete(index);
    this.windows.set(index, held);
  }

  /** Keeps a window main answered (it starts at a window's first line), dropping the oldest. */
  put(window: LogWindow): void {
    const index = LogWindowCache.windowOf(window.from);
    this.windows.delete(index);
    this.windows.set(index, {
      lines: window.lines.slice(0, WINDOW_LINES),
      totalLines: window.totalLines,
    });
    while (this.windows.size > this.maxWindows) {
      const oldest = this.windows.keys().next();
      if (oldest.done) break;
      this.windows.delete(oldest.value);
    }
  }

  /** Lines held now. */
  heldLines(): number {
    let n = 0;
    for (const held of this.windows.values()) n += held.lines.length;
    return n;
  }

  clear(): void {
    this.windows.clear();
  }
}
