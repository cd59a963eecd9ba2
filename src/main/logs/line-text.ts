/**
 * Bytes of a log line to text a viewer can show as it is. Logs come from the server and
 * from whatever ran on the worker, so nothing in them is trusted:
 *
 * - invalid UTF-8 becomes U+FFFD (the WHATWG decoder, one replacement per bad sequence);
 * - terminal escape sequences (CSI such as colours, OSC such as window titles and links,
 *   and the two-byte ones) are removed and their text kept, since a viewer that drew them
 *   would let the log move the cursor, rename the window or plant links;
 * - every other character that shows nothing or acts on the text around it, all but tab,
 *   becomes a visible mark (shared/visible-text.ts, which file names use too):
 *   C0 as its Control Pictures symbol (NUL as ␀, ESC left over as ␛), DEL as ␡, C1
 *   (U+0080–U+009F, which include an 8-bit CSI) as U+FFFD, and bidirectional controls
 *   and other format characters as their code point (`<U+202E>`), since RIGHT-TO-LEFT
 *   OVERRIDE would make the rest of a line read backwards.
 *
 * The result is plain text, to be shown as text: it is not escaped for HTML, because it
 * must never be used as HTML in the first place.
 */
/* eslint-disable no-control-regex -- finding control characters is what this module is for */
import { nextInvisible, visibleText } from '../../shared/visible-text';

/** How much of one line is shown (and searched); the rest is cut, and said to be. */
export const LINE_LIMIT = 64 * 1024;

// CSI: ESC [ parameters intermediates final. OSC: ESC ] payload ended by BEL or ESC \; an
// OSC left open keeps its payload visible (only `ESC ]` goes). Two-byte: ESC intermediates
// final. No class here takes ESC or LF, so a failed try stops at the next ESC or the end
// of its line: the pass stays linear, and never joins two lines.
const ESCAPES =
  /\u001b(?:\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)|[\u0020-\u002f]*[\u0030-\u007e])/g;

// Tabs are a log's spacing, and LF joins the lines of a run (line-reader.ts); no line
// contains one.
const KEEP = 'tabs and newlines';

function cleanOne(line: string): string {
  return visibleText(line.replace(ESCAPES, ''), KEEP);
}

/**
 * A decoded line, or lines joined by LF, made safe to show (each line exactly as alone).
 * Ends of line other than LF must already be gone: a CR here would be made visible. Only
 * the lines that need it are rewritten: in a run of thousands of lines, usually none.
 */
export function cleanText(text: string): string {
  // Every escape starts with ESC, which is itself one of the characters made visible.
  let found = nextInvisible(text, 0, KEEP);
  if (found === -1) return text;
  let out = '';
  let copied = 0;
  while (found !== -1) {
    const start = text.lastIndexOf('\n', found) + 1;
    const newline = text.indexOf('\n', found);
    const end = newline === -1 ? text.length : newline;
    out += text.slice(copied, start) + cleanOne(text.slice(start, end));
    copied = end;
    found = nextInvisible(text, end, KEEP);
  }
  return out + text.slice(copied);
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * Where to cut `bytes` (a line's first bytes, longer than LINE_LIMIT) so as not to split a
 * UTF-8 sequence: back over at most three continuation bytes.
 */
export function cutPoint(bytes: Uint8Array): number {
  let at = LINE_LIMIT;
  for (let back = 0; back < 3 && at > 0 && ((bytes[at] ?? 0) & 0xc0) === 0x80; back++) at--;
  return at;
}
