/**
 * Plain-text search in a log's bytes, against grep on the same files: the lines found are
 * those `LC_ALL=C grep -a -F -n` finds (with `-i` when the case is ignored), on files as
 * hostile as logs get: bytes that are not UTF-8, NULs, CRs, escapes, lines of megabytes, a
 * hit on a last line with no end of line, needles across the boundary of two reads, and
 * random files whose byte counts lead the search to each of its ways of finding.
 *
 * grep ends lines at LF only; the viewer also at a lone CR (line-index.ts). For files with
 * lone CRs, grep is given the same bytes with every end of line made LF, which keeps the
 * viewer's lines and their numbers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byteNeedle, CHUNK, searchBytes } from '../../src/main/logs/byte-search';
import { LineIndex } from '../../src/main/logs/line-index';
import { LogSearches } from '../../src/main/logs/log-search';

let dir: string;
let made = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ddt-byte-search-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(bytes: Buffer): string {
  const path = join(dir, `log-${String(made++)}`);
  writeFileSync(path, bytes);
  return path;
}

function grep(args: string[], path: string): string {
  try {
    return execFileSync('grep', ['-a', '-F', ...args, path], {
      env: { ...process.env, LC_ALL: 'C' },
      encoding: 'latin1',
      maxBuffer: 64 * 2 ** 20,
    });
  } catch (error) {
    // grep exits with 1 when no line matches (and still says 0 for -c).
    const failed = error as { status?: number; stdout?: string };
    if (failed.status === 1) return failed.stdout ?? '';
    throw error;
  }
}

/** `grep -c` and the lines (from 0) grep finds, in order. */
function grepLines(
  bytes: Buffer,
  needle: string,
  caseSensitive: boolean,
): { count: number; lines: number[] } {
  // Every end of line as the viewer sees it (CRLF, lone CR) made one LF.
  const unified = Buffer.from(bytes.toString('latin1').replace(/\r\n?/g, '\n'), 'latin1');
  const path = write(unified);
  const flags = [...(caseSensitive ? [] : ['-i']), '-e', needle];
  const count = Number(grep(['-c', ...flags], path).trim());
  // -o: each hit alone (a line may be megabytes), with its line's number.
  const lines = grep(['-n', '-o', ...flags], path)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => Number(line.slice(0, line.indexOf(':'))) - 1);
  return { count, lines: [...new Set(lines)] };
}

/** Writes `bytes` to a file and indexes them; `use` reads them through both. */
async function withLog<T>(
  bytes: Buffer,
  use: (file: FileHandle, index: LineIndex) => Promise<T>,
): Promise<T> {
  const path = write(bytes);
  const index = new LineIndex();
  index.push(bytes);
  index.finish();
  const file = await open(path, 'r');
  try {
    return await use(file, index);
  } finally {
    await file.close();
  }
}

/** The lines the byte search finds, reading through an index built from `bytes`. */
async function searchLines(
  bytes: Buffer,
  needle: string,
  caseSensitive: boolean,
): Promise<number[]> {
  return withLog(bytes, async (file, index) => {
    const query = byteNeedle(needle, caseSensitive);
    if (!query) throw new Error(`${needle} is not searched in bytes`);
    const found: number[] = [];
    const reached = await searchBytes({
      file,
      index,
      needle: query,
      from: 0,
      to: index.lines,
      found: (line) => found.push(line),
      stop: () => false,
    });
    expect(reached).toBe(index.lines);
    return found;
  });
}

async function expectAsGrep(bytes: Buffer, needle: string, caseSensitive = true): Promise<void> {
  const expected = grepLines(bytes, needle, caseSensitive);
  const found = await searchLines(bytes, needle, caseSensitive);
  expect(found.length).toBe(expected.count);
  expect(found).toEqual(expected.lines);
}

const HOSTILE = Buffer.concat([
  Buffer.from('Build started\nerror: first\n'),
  Buffer.from([0x62, 0x61, 0x64, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x20, 0x45, 0x52, 0x52, 0x4f, 0x52]),
  Buffer.from('\nnul:\u0000error\u0000:end\n'),
  Buffer.from('crlf Error here\r\nlone cr error\rafter the cr\r\r\n'),
  Buffer.from('\u001b[31mError\u001b[0m: linker failed\n'),
  Buffer.from(`${'z'.repeat(3 * CHUNK + 11)} error past three reads\n`),
  Buffer.from(`${'y'.repeat(CHUNK)}\n`),
  Buffer.from('ERROR twice: error error\n'),
  Buffer.from('no end of line on the last one: the-last-error'),
]);

describe('searching the bytes of a log, as grep', () => {
  it.each([
    ['error', true],
    ['error', false],
    ['ERROR', true],
    ['Error', false],
    ['the-last-error', true],
    ['THE-LAST-ERROR', false],
    ['z error', true],
    ['zzzz', true],
    ['y', false],
    ['[31m', true],
  ])(
    'finds the lines grep finds with %j (case-sensitive: %s) in a hostile log',
    async (needle, cs) => {
      await expectAsGrep(HOSTILE, needle, cs);
    },
  );

  it('counts a line once however often it matches, and only lines with hits', async () => {
    const lines = await searchLines(HOSTILE, 'error', false);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.at(-1)).toBe(12);
  });

  it('finds a needle across the boundary of two reads, wherever it falls', async () => {
    const needle = 'needle-across';
    for (let back = 0; back <= needle.length + 1; back++) {
      const before = Buffer.alloc(CHUNK - back, 'a');
      // A line of the first read ends just before, or the needle's line starts in it.
      if (back % 3 === 0 && before.length > 2) before[before.length - 2] = 10;
      const bytes = Buffer.concat([before, Buffer.from(`${needle}\nneedle\n${needle}`)]);
      await expectAsGrep(bytes, needle);
      await expectAsGrep(bytes, needle.toUpperCase(), false);
    }
  });

  it('counts a hit once when the line of an earlier hit ends inside the bytes read again', async () => {
    // A hit near the end of a read, on a line that ends in the needle's length less one
    // bytes read twice, then a second hit on the next line.
    const needle = 'abcdef';
    const first = Buffer.alloc(CHUNK - 9, 'x');
    const bytes = Buffer.concat([first, Buffer.from(`${needle}\n${needle}${needle}\nz`)]);
    await expectAsGrep(bytes, needle);
  });

  it('agrees with grep on random files, whichever way the needle is found', async () => {
    // A small generator of its own, so that every run tries the same files.
    let seed = 12_345;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      // The high bits: the low ones of such a generator repeat with a short period.
      return Math.floor((seed / 2 ** 31) * n);
    };
    // Alphabets with few and with many letters: the needle's rarest byte is then common
    // (Buffer.indexOf or the regular expression over the whole needle) or rare (memchr on
    // that byte).
    const alphabets = [
      'abAB \n',
      'abcdefghijklmnopqrstuvwxyzABCXYZ0123 -\n\r\u0000',
      `${'a'.repeat(400)}bBcC\n`,
      'eE\n',
    ];
    for (let round = 0; round < 12; round++) {
      const alphabet = alphabets[round % alphabets.length] ?? '';
      const size = round % 6 === 0 ? CHUNK + random(5000) : 2000 + random(20_000);
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = alphabet.charCodeAt(random(alphabet.length));
      for (const length of [1, 2, 3, 5]) {
        // Half of the needles are cut from the file (so they are found), half are made of
        // the alphabet's characters each as likely (so the rare ones are in them).
        const letters = [...new Set(alphabet)].filter((c) => !'\n\r\u0000'.includes(c));
        let needle = '';
        if (random(2) === 0) {
          const at = random(size - length);
          needle = bytes.subarray(at, at + length).toString('latin1');
        }
        if (/[\n\r]/.test(needle) || needle.includes('\u0000') || needle.length < length) {
          needle = '';
        }
        while (needle.length < length) needle += letters[random(letters.length)] ?? 'a';
        const cs = random(2) === 0;
        await expectAsGrep(bytes, needle, cs);
      }
    }
    // grep runs a hundred times or so: more than the default five seconds on a busy machine.
  }, 60_000);
});

describe('what is searched in the bytes and what is not', () => {
  it('takes ASCII, and UTF-8 when the case matters', () => {
    expect(byteNeedle('Error', false)?.bytes.toString()).toBe('error');
    expect(byteNeedle('Error', true)?.bytes.toString()).toBe('Error');
    expect(byteNeedle('größe', true)?.bytes).toEqual(Buffer.from('größe'));
  });

  it('leaves to the decoded lines what only they can answer', () => {
    // Letters past ASCII, their case ignored: JavaScript folds them, not this search.
    expect(byteNeedle('größe', false)).toBeNull();
    // What the viewer shows in place of bytes: a NUL as ␀, bytes that are not UTF-8 as
    // U+FFFD, a format character as <U+202E>; and controls themselves.
    expect(byteNeedle('nul:␀', true)).toBeNull();
    expect(byteNeedle('bad \ufffd', true)).toBeNull();
    expect(byteNeedle('<U+202E>', true)).toBeNull();
    expect(byteNeedle('a\u0000b', true)).toBeNull();
    expect(byteNeedle('a\u202eb', true)).toBeNull();
  });

  it('gives the same answers through the searches kept per file', async () => {
    await withLog(HOSTILE, async (file, index) => {
      const searches = new LogSearches();
      const options = { regex: false, caseSensitive: false };
      const expected = grepLines(HOSTILE, 'error', false);
      const first = await searches.find({ file, index }, 'error', options, 0, 'next');
      expect(first).toMatchObject({ matches: expected.count, line: expected.lines[0] });
      const last = await searches.find({ file, index }, 'the-last-error', options, 0, 'next');
      expect(last).toMatchObject({ matches: 1, line: index.lines - 1 });
      // A search for what the viewer shows as ␀ still finds the NUL's line (decoded).
      const nul = await searches.find({ file, index }, 'nul:␀', options, 0, 'next');
      expect(nul).toMatchObject({ matches: 1, line: 3 });
    });
  });
});
