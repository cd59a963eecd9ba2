/**
 * Copying a viewer's lines: read again from main, as the renderer holds only what is near
 * the screen.
 */
import type { BridgeClient } from '@shared/contract';

/** At most this many lines go to the clipboard at once (main's own limit per request). */
export const MAX_COPY_LINES = 2000;

/** The text of lines `from`..`to` (inclusive, at most MAX_COPY_LINES), one per line. */
export async function readLines(
  bridge: BridgeClient,
  handle: string,
  from: number,
  to: number,
): Promise<string> {
  return (await readLineTexts(bridge, handle, from, to)).join('\n');
}

/** The texts of lines `from`..`to` (inclusive, at most MAX_COPY_LINES; fewer past the end). */
export async function readLineTexts(
  bridge: BridgeClient,
  handle: string,
  from: number,
  to: number,
): Promise<string[]> {
  const last = Math.min(to, from + MAX_COPY_LINES - 1);
  const out: string[] = [];
  let at = from;
  while (at <= last) {
    const window = await bridge.logs.lines({ handle, from: at, count: last - at + 1 });
    // Fewer lines than asked: the byte budget, or the end of what was read so far.
    if (window.lines.length === 0) break;
    for (const line of window.lines) out.push(line.text);
    at += window.lines.length;
  }
  return out;
}
