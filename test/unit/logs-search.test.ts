/**
 * Search over a whole log in main: counts, next and previous with wrapping, regular
 * expressions and their errors, the guard against nested repetitions, regular expressions
 * matching the text as the viewer shows it (escapes removed, long lines cut), and plain
 * text matching the file's bytes, whole lines, as grep does (logs-byte-search.test.ts
 * compares it with grep), and the first hit answered before the count of a big file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/main/logs/line-index';
import { LogSearches } from '../../src/main/logs/log-search';
import { DebusineError } from '../../src/shared/errors';
import { nestedRepetition } from '../../src/main/logs/log-query';
import { startFakeDebusine, type FakeDebusine } from '../support/fake-debusine';
import { isReady, logStoreOn, type StoreUnderTest } from '../support/log-store';

let fake: FakeDebusine;
let s: StoreUnderTest & { cleanup(): Promise<void> };
let opens: (StoreUnderTest & { cleanup(): Promise<void> })[] = [];
let handle: string;

const LINES = [
  'Build started',
  'gcc -c foo.c',
  'foo.c:3:1: error: expected ";"',
  '\u001b[31mError\u001b[0m: linker failed',
  'make[1]: *** [Makefile:12: foo.o] Error 1',
  `${'z'.repeat(70_000)} error: far beyond what is shown`,
  'make: *** [debian/rules:3: binary] Error 2',
  'done',
];

beforeAll(async () => {
  fake = await startFakeDebusine();
  fake.artifact(950, [{ path: 'build.log', content: LINES.join('\n') }]);
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  for (const made of opens) await made.cleanup();
  opens = [];
});

async function opened(): Promise<void> {
  s = logStoreOn(fake);
  opens.push(s);
  handle = (await s.open(950, 'build.log')).handle;
  await s.wait(handle, isReady);
}

const text = { regex: false, caseSensitive: false };
const regex = { regex: true, caseSensitive: true };

describe('searching a log', () => {
  it('counts matching lines and finds the next and the previous one, wrapping', async () => {
    await opened();
    const next = (from: number) => s.store.search(handle, 'error', text, from, 'next');
    const previous = (from: number) => s.store.search(handle, 'error', text, from, 'previous');
    // Case-insensitive: lines 2, 3 (between its escapes), 4, 5 and 6. Line 5's "error" lies
    // past the 64 KiB the viewer shows of it: plain text is looked for in the whole line,
    // as grep does, and the line is shown cut, saying so.
    expect(await next(0)).toEqual({
      matches: 5,
      line: 2,
      ordinal: 1,
      wrapped: false,
      complete: true,
      searchedLines: 8,
      counted: true,
    });
    expect(await next(3)).toMatchObject({ line: 3, ordinal: 2 });
    expect(await next(5)).toMatchObject({ line: 5, ordinal: 4, wrapped: false });
    expect(await next(7)).toMatchObject({ line: 2, ordinal: 1, wrapped: true });
    expect(await previous(5)).toMatchObject({ line: 5, ordinal: 4, wrapped: false });
    expect(await previous(1)).toMatchObject({ line: 6, ordinal: 5, wrapped: true });
    const exact = await s.store.search(
      handle,
      'Error',
      { ...text, caseSensitive: true },
      0,
      'next',
    );
    expect(exact).toMatchObject({ matches: 3, line: 3 });
    // A regular expression sees the text shown: line 5 only up to where it is cut.
    const shownOnly = await s.store.search(
      handle,
      'error',
      { regex: true, caseSensitive: false },
      0,
      'next',
    );
    expect(shownOnly).toMatchObject({ matches: 4 });
    expect(await s.store.search(handle, 'nowhere', text, 0, 'next')).toMatchObject({
      matches: 0,
      line: null,
      ordinal: null,
    });
  });

  it('takes regular expressions, and the text searched is the text shown', async () => {
    await opened();
    const make = await s.store.search(
      handle,
      String.raw`^make(\[\d+\])?: \*\*\*`,
      regex,
      0,
      'next',
    );
    expect(make).toMatchObject({ matches: 2, line: 4 });
    // The colour codes are not in the text shown, so not in the text searched either.
    expect(await s.store.search(handle, '^Error: linker', regex, 0, 'next')).toMatchObject({
      matches: 1,
      line: 3,
    });
    // A plain query is not a regular expression.
    expect(await s.store.search(handle, '[debian/rules', text, 0, 'next')).toMatchObject({
      matches: 1,
      line: 6,
    });
  });

  it('says which regular expression is wrong, and how', async () => {
    await opened();
    const error = await s.store.search(handle, '(unclosed', regex, 0, 'next').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DebusineError);
    expect(error).toMatchObject({
      code: 'validation',
      message: 'The regular expression "(unclosed" is not valid: Unterminated group',
      details: { field: 'query', rule: 'regex-syntax' },
    });
    await expect(s.store.search(handle, 'a**', regex, 0, 'next')).rejects.toMatchObject({
      message: expect.stringContaining('Nothing to repeat') as string,
    });
  });

  it('refuses nested repetitions, which can take exponential time', async () => {
    await opened();
    await expect(s.store.search(handle, '(a+)+$', regex, 0, 'next')).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('"(a+)+" repeats a group that itself repeats') as string,
      details: { rule: 'regex-nested-repetition' },
    });
  });
});

describe('a search that takes too long', () => {
  it('stops, says where, and goes on from there next time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-log-search-'));
    const path = join(dir, 'log');
    // More than one read of the byte search (CHUNK), which asks the clock after each.
    const lines = Array.from({ length: 200_000 }, (_, n) => `line ${String(n)} ok`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const file = await open(path, 'r');
    try {
      const index = new LineIndex();
      index.push(readFileSync(path));
      index.finish();
      // A limit already passed: the search stops after its first read.
      const searches = new LogSearches(-1);
      const error = await searches.find({ file, index }, 'ok', text, 0, 'next').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'timeout', details: { rule: 'search-time' } });
      expect((error as Error).message).toMatch(
        /^The search stopped after .* at line \d+ of 200000/,
      );
      const patient = new LogSearches();
      await expect(patient.find({ file, index }, 'ok', text, 0, 'next')).resolves.toMatchObject({
        matches: 200_000,
        complete: true,
      });
    } finally {
      await file.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the first hit first', () => {
  it('answers the line found before the pass has read the file, and the count at its end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-log-search-'));
    const path = join(dir, 'log');
    // About 7 MB, read a CHUNK at a time: the first hit is in the first read, the only
    // other one in the last.
    const lines = Array.from({ length: 400_000 }, (_, n) => `line ${String(n)} ok`);
    lines[10] = 'make: *** [debian/rules:3: binary] Error 2';
    lines[399_990] = 'make: *** [debian/rules:9: clean] Error 2';
    const content = Buffer.from(`${lines.join('\n')}\n`);
    writeFileSync(path, content);
    const opened = await open(path, 'r');
    /** The end of the furthest read so far, and what was read by the time each answer came. */
    let readTo = 0;
    const order: string[] = [];
    const file = new Proxy(opened, {
      get(target, name, receiver): unknown {
        if (name !== 'read') return Reflect.get(target, name, receiver) as unknown;
        return async (buffer: Buffer, offset: number, length: number, position: number) => {
          const got = await target.read(buffer, offset, length, position);
          readTo = Math.max(readTo, position + got.bytesRead);
          return got;
        };
      },
    });
    try {
      const index = new LineIndex();
      index.push(content);
      index.finish();
      const searches = new LogSearches();
      const query = 'Error 2';
      const asked = { regex: false, caseSensitive: true };
      const first = searches.find({ file, index }, query, asked, 0, 'next', 'found');
      const count = searches.find({ file, index }, query, asked, 0, 'next', 'counted');
      const firstSeen = first.then((found) => {
        order.push(`found line ${String(found.line)}, ${String(readTo)} bytes read`);
        return found;
      });
      const countSeen = count.then((found) => {
        order.push(`counted ${String(found.matches)}, ${String(readTo)} bytes read`);
        return found;
      });
      expect(await firstSeen).toMatchObject({
        line: 10,
        ordinal: 1,
        matches: 1,
        counted: false,
        complete: false,
        wrapped: false,
      });
      expect(await countSeen).toMatchObject({
        line: 10,
        ordinal: 1,
        matches: 2,
        counted: true,
        complete: true,
      });
      // The line came after the first read, long before the end; the count at the end.
      expect(order).toEqual([
        `found line 10, ${String(2 ** 20)} bytes read`,
        `counted 2, ${String(content.length)} bytes read`,
      ]);
      // Asked again, it is known: answered at once, counted.
      await expect(
        searches.find({ file, index }, query, asked, 11, 'next', 'found'),
      ).resolves.toMatchObject({ line: 399_990, ordinal: 2, matches: 2, counted: true });
      // No line after the one asked for: the pass ends first, and the search wraps around.
      const again = new LogSearches();
      await expect(
        again.find({ file, index }, query, asked, 399_991, 'next', 'found'),
      ).resolves.toMatchObject({ line: 10, wrapped: true, matches: 2, counted: true });
    } finally {
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the nested repetition guard', () => {
  it.each([
    ['(a+)+', '(a+)+'],
    ['x(?:a|b*)*y', '(?:a|b*)*'],
    ['((ab)+c?)+', '((ab)+c?)+'],
    ['(a*){2,}', '(a*){2,}'],
    ['(\\w+\\s?)*$', '(\\w+\\s?)*'],
  ])('finds the nested repetition in %s', (pattern, nested) => {
    expect(nestedRepetition(pattern)).toBe(nested);
  });

  it.each(['error: .*', '(a+)?', '(ab)+', '[(a+)]+', '\\(a+\\)+', '(?<n>x+)y', 'a{2}(b+){1}'])(
    'lets %s through',
    (pattern) => {
      expect(nestedRepetition(pattern)).toBeNull();
    },
  );
});
