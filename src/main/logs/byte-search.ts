/**
 * Plain text looked for in the bytes of a log, as `grep -F -c` does, rather than in its
 * lines decoded: the file is read in chunks of CHUNK bytes through one buffer, the needle
 * is found by memchr-speed Buffer.indexOf calls, and a hit is turned into its line by the
 * line index (a binary search), never by counting the newlines before it. After a hit the
 * search goes on at the next line: a line counts once, however often it matches.
 *
 * Case-insensitive search folds ASCII only (A–Z and a–z are one), as
 * `LC_ALL=C grep -i` does; a needle with other letters is left to the decoded search
 * (log-query.ts), which folds them as JavaScript does. What the viewer shows differently
 * from the bytes (controls shown as symbols, U+FFFD for bytes that are not UTF-8) is left
 * to it as well (`byteNeedle` answers null).
 *
 * How the needle is found depends on the file: its rarest byte (counted in the first
 * chunk) leads. Case-sensitive, Buffer.indexOf looks for the few bytes from there (its
 * search of a short pattern runs memchr on the pattern's first byte), and the rest of the
 * needle is compared around each hit. Case ignored, a rare byte is looked for alone, in
 * both cases, and the whole needle compared around each candidate; when every byte of the
 * needle is common, a regular expression ignoring case runs over the chunk read as
 * Latin-1. Lines are whole here, however long: a hit past the part of a line the viewer
 * shows still makes the line match, as in grep.
 */
import type { FileHandle } from 'node:fs/promises';
import { nextInvisible } from '../../shared/visible-text';
import type { LineIndex } from './line-index';
import { readAt } from './line-reader';

/** Bytes read at a time: well above the longest needle (the contract's 1,000 characters). */
export const CHUNK = 2 ** 20;
/** Bytes of the first chunk counted to find which byte of the needle is rarest. */
const SAMPLE = 256 * 1024;
/**
 * Case ignored, above this share of the file's bytes a candidate per pivot byte (two
 * native calls and a comparison in JavaScript, about 70 ns) costs more than the regular
 * expression over the whole chunk (about 0.8 ns a byte); measured on sbuild logs.
 */
const PIVOT_SHARE = 0.004;
/**
 * Bytes of a case-sensitive needle given to Buffer.indexOf: Node searches patterns shorter
 * than 7 bytes by memchr on their first byte, and longer ones by Boyer-Moore-Horspool,
 * which on sbuild logs was about twice as slow (dpkg-source: 280 ms for 200 MB, against
 * 80 ms for "kg-sou").
 */
const WINDOW = 6;

const LF = 10;
const CR = 13;

export interface ByteNeedle {
  /** UTF-8; lower case (ASCII) when the case is ignored. */
  bytes: Buffer;
  caseSensitive: boolean;
}

/** Characters shown as something other than themselves, or standing for such a thing. */
const SHOWN_OTHERWISE = /[\ufffd\u2400-\u243f]|<U\+/;

/** The needle to look for in the bytes; null when only the decoded lines can answer. */
export function byteNeedle(query: string, caseSensitive: boolean): ByteNeedle | null {
  if (query === '') return null;
  if (nextInvisible(query, 0, 'tabs and newlines') !== -1 || SHOWN_OTHERWISE.test(query)) {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- "only ASCII" is the test
  if (!caseSensitive && /[^\u0000-\u007f]/.test(query)) return null;
  const text = caseSensitive ? query : query.toLowerCase();
  return { bytes: Buffer.from(text, 'utf8'), caseSensitive };
}

const UPPER_A = 65;
const UPPER_Z = 90;

function lower(byte: number): number {
  return byte >= UPPER_A && byte <= UPPER_Z ? byte | 0x20 : byte;
}

function isLetter(byte: number): boolean {
  const folded = byte | 0x20;
  return folded >= 97 && folded <= 122;
}

type Find = (chunk: Buffer, from: number) => number;

/**
 * Case-sensitive: the WINDOW bytes from the needle's rarest byte (or fewer, at its end) by
 * Buffer.indexOf, the rest of the needle compared around each hit of them.
 */
function windowFinder(needle: ByteNeedle, pivot: number): Find {
  const bytes = needle.bytes;
  const length = bytes.length;
  const window = bytes.subarray(pivot, Math.min(length, pivot + WINDOW));
  const whole = window.length === length;
  return (chunk, from) => {
    const last = chunk.length - length + pivot;
    for (let at = chunk.indexOf(window, from + pivot); at !== -1 && at <= last;) {
      const start = at - pivot;
      if (whole || chunk.compare(bytes, 0, length, start, start + length) === 0) return start;
      at = chunk.indexOf(window, at + 1);
    }
    return -1;
  };
}

/** Text of a chunk made into a string at a time: small enough for V8's young generation. */
const SLICE = 96 * 1024;

/**
 * The whole needle, its case ignored: irregexp's case-insensitive literal search over the
 * chunk read as Latin-1, a string of one character per byte, so that a place in it is a
 * place in the bytes. Without the `u` flag, case folding never makes a character past
 * ASCII equal to one in it, so an ASCII needle folds as `LC_ALL=C grep -i` does. Strings of
 * SLICE characters (overlapping by the needle's length less one) rather than one of the
 * whole chunk: line-reader.ts says why.
 */
function foldedFinder(needle: ByteNeedle): Find {
  const length = needle.bytes.length;
  const escaped = needle.bytes.toString('latin1').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(escaped, 'gi');
  let seen: Buffer | null = null;
  let [start, text] = [0, ''];
  return (chunk, from) => {
    if (seen !== chunk) [seen, start, text] = [chunk, 0, ''];
    let at = from;
    while (chunk.length - at >= length) {
      if (at < start || at + length > start + text.length) {
        start = at;
        text = chunk.toString('latin1', at, Math.min(chunk.length, at + SLICE));
      }
      pattern.lastIndex = at - start;
      // test() rather than exec(): no match object per hit; the match ends at lastIndex, and
      // a literal of ASCII letters and bytes is `length` characters long.
      if (pattern.test(text)) return start + pattern.lastIndex - length;
      if (start + text.length >= chunk.length) return -1;
      at = start + text.length - (length - 1);
    }
    return -1;
  };
}

/**
 * Case ignored: the needle by its byte at `pivot` (both cases of a letter), then compared
 * in full, folded. The next place of each pivot byte is kept between calls on the same
 * chunk, so that a chunk is gone through once whatever the number of hits.
 */
function pivotFinder(needle: ByteNeedle, pivot: number): Find {
  const bytes = needle.bytes;
  const length = bytes.length;
  const first = bytes[pivot] ?? 0;
  const second = isLetter(first) ? first & ~0x20 : -1;
  let seen: Buffer | null = null;
  let [a, b] = [-1, -1];
  const matchesAt = (chunk: Buffer, start: number): boolean => {
    for (let k = 0; k < length; k++) if (lower(chunk[start + k] ?? 0) !== bytes[k]) return false;
    return true;
  };
  return (chunk, from) => {
    const lowest = from + pivot;
    const last = chunk.length - length + pivot;
    if (seen !== chunk) [seen, a, b] = [chunk, -2, second === -1 ? -1 : -2];
    for (;;) {
      if (a !== -1 && a < lowest) a = chunk.indexOf(first, lowest);
      if (b !== -1 && b < lowest) b = chunk.indexOf(second, lowest);
      const candidate = b === -1 || (a !== -1 && a < b) ? a : b;
      if (candidate === -1 || candidate > last) return -1;
      if (matchesAt(chunk, candidate - pivot)) return candidate - pivot;
      if (candidate === a) a = chunk.indexOf(first, candidate + 1);
      else b = chunk.indexOf(second, candidate + 1);
    }
  };
}

/** How to find the needle in this file, judged from its first bytes. */
function finderFor(needle: ByteNeedle, sample: Uint8Array): Find {
  const counts = new Uint32Array(256);
  const end = Math.min(sample.length, SAMPLE);
  for (let i = 0; i < end; i++) {
    const byte = sample[i] ?? 0;
    counts[byte] = (counts[byte] ?? 0) + 1;
  }
  let pivot = 0;
  let rarest = Infinity;
  needle.bytes.forEach((byte, k) => {
    const n =
      (counts[byte] ?? 0) +
      (!needle.caseSensitive && isLetter(byte) ? (counts[byte & ~0x20] ?? 0) : 0);
    if (n < rarest) [pivot, rarest] = [k, n];
  });
  if (needle.caseSensitive) return windowFinder(needle, pivot);
  const share = rarest / Math.max(1, end);
  return share <= PIVOT_SHARE ? pivotFinder(needle, pivot) : foldedFinder(needle);
}

export interface ByteSearch {
  file: FileHandle;
  index: LineIndex;
  needle: ByteNeedle;
  /** Lines `from` to `to` (excluded) are searched; they must all be in the index. */
  from: number;
  to: number;
  /** Called with each matching line, once, in order. */
  found: (line: number) => void;
  /** Asked after each chunk: true stops the search there. */
  stop: () => boolean;
}

/**
 * Searches the lines asked for; returns the line it got to (excluded): `to`, or less when
 * `stop` stopped it. Lines before that are done, and none of them matched twice.
 */
export async function searchBytes(search: ByteSearch): Promise<number> {
  const { file, index, needle, from, to } = search;
  const length = needle.bytes.length;
  // No line holds an end of line: such a needle matches none.
  if (from >= to || needle.bytes.includes(LF) || needle.bytes.includes(CR)) return to;
  const end = index.next(to - 1);
  const buffer = Buffer.allocUnsafeSlow(Math.min(CHUNK, end - index.start(from)));
  let find: Find | null = null;
  /** The line of the last hit: the next one is at or after it. */
  let line = from;
  let position = index.start(from);
  while (end - position >= length) {
    const chunk = await readAt(file, position, Math.min(buffer.length, end - position), buffer);
    find ??= finderFor(needle, chunk);
    // Where the search in this chunk goes on: after the line of the last hit.
    let resume = 0;
    let beyond: number | null = null;
    for (let hit = find(chunk, 0); hit !== -1; hit = find(chunk, resume)) {
      line = index.lineOf(position + hit, line);
      search.found(line);
      const next = index.next(line);
      if (next >= position + chunk.length) {
        beyond = next;
        break;
      }
      resume = next - position;
    }
    if (beyond !== null) position = beyond;
    else if (position + chunk.length >= end) position = end;
    // A needle may start in the last bytes of the chunk and end in the next: those bytes
    // are read again, but not the line of a hit already counted.
    else position += Math.max(resume, chunk.length - (length - 1));
    if (position < end && search.stop()) return index.lineOf(position);
  }
  return to;
}
