/**
 * The line index (built from chunks, whatever their boundaries) and the text a line
 * becomes (line-text.ts).
 */
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/main/logs/line-index';
import { cleanText, cutPoint, LINE_LIMIT } from '../../src/main/logs/line-text';

/** Every line of `text` as the index cuts it, read back through the offsets. */
function linesOf(bytes: Buffer, chunkSizes: number[]): string[] {
  const index = new LineIndex();
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = chunkSizes[i % chunkSizes.length] ?? 1;
    index.push(bytes.subarray(at, at + size));
    at += size;
  }
  index.finish();
  const lines: string[] = [];
  for (let line = 0; line < index.lines; line++) {
    lines.push(bytes.subarray(index.start(line), index.next(line)).toString('latin1'));
  }
  return lines;
}

describe('the line index', () => {
  const text = 'one\ntwo\r\nthree\rfour\r\r\nfive\n\nsix\r';
  const expected = ['one\n', 'two\r\n', 'three\r', 'four\r', '\r\n', 'five\n', '\n', 'six\r'];

  it('ends lines at LF, CRLF and a lone CR, whatever the chunk boundaries', () => {
    const bytes = Buffer.from(text, 'latin1');
    for (const sizes of [[bytes.length], [1], [2], [3], [5, 1, 2], [7, 4]]) {
      expect(linesOf(bytes, sizes), JSON.stringify(sizes)).toEqual(expected);
    }
  });

  it('counts a last line without an end of line only once the file is complete', () => {
    const index = new LineIndex();
    index.push(Buffer.from('a\nb'));
    expect(index.lines).toBe(1);
    index.push(Buffer.from('c\r'));
    // The CR may be the start of a CRLF: not counted until the next byte or the end.
    expect(index.lines).toBe(1);
    index.finish();
    expect(index.lines).toBe(2);
    expect([index.start(1), index.next(1)]).toEqual([2, 5]);
  });

  it('has no lines for an empty file, and one for a file of one end of line', () => {
    const empty = new LineIndex();
    empty.finish();
    expect(empty.lines).toBe(0);
    const one = new LineIndex();
    one.push(Buffer.from('\n'));
    one.finish();
    expect(one.lines).toBe(1);
  });

  it('finds the line of any byte, its end of line included, and of no byte past them', () => {
    const bytes = Buffer.from(text, 'latin1');
    const index = new LineIndex();
    index.push(bytes);
    // Before the end: only lines whose end is known have bytes to look up.
    expect(() => index.lineOf(bytes.length - 1)).toThrow(RangeError);
    index.finish();
    let offset = 0;
    expected.forEach((line, n) => {
      for (let k = 0; k < line.length; k++) {
        expect(index.lineOf(offset + k)).toBe(n);
        // From a line before it (as a search going forward passes), or one past it.
        expect(index.lineOf(offset + k, Math.max(0, n - 1))).toBe(n);
        expect(index.lineOf(offset + k, n + 2)).toBe(n);
      }
      offset += line.length;
    });
    expect(() => index.lineOf(bytes.length)).toThrow(RangeError);
    expect(() => index.lineOf(-1)).toThrow(RangeError);
  });

  it('indexes 200 000 lines in 4 bytes a line', () => {
    const index = new LineIndex();
    const line = (n: number) => `line ${String(n)} of a long build log\n`;
    let chunk = '';
    let offset = 0;
    const starts: number[] = [];
    for (let n = 0; n < 200_000; n++) {
      starts.push(offset);
      const l = line(n);
      chunk += l;
      offset += l.length;
      if (chunk.length > 60_000) {
        index.push(Buffer.from(chunk));
        chunk = '';
      }
    }
    index.push(Buffer.from(chunk));
    index.finish();
    expect(index.lines).toBe(200_000);
    for (const n of [0, 1, 99_999, 199_999]) expect(index.start(n)).toBe(starts[n]);
    expect(index.next(199_999)).toBe(offset);
    // 4 bytes a line once trimmed (and one more offset: where a next line would start).
    expect(index.memory).toBe((200_000 + 1) * 4);
    expect(() => index.start(200_000)).toThrow(RangeError);
  });
});

describe('the text of a line', () => {
  it('keeps plain text, tabs and non-ASCII text as they are', () => {
    const line = 'dpkg-deb: building package \u2018hello\u2019\tin ../hello_2.10-5_amd64.deb <b>';
    expect(cleanText(line)).toBe(line);
  });

  it('removes colour and cursor sequences, and keeps their text', () => {
    expect(cleanText('\u001b[1;31merror:\u001b[0m bad \u001b[2K\u001b[10;5Hdone')).toBe(
      'error: bad done',
    );
  });

  it('removes window titles and links (OSC), and shows an unfinished one', () => {
    expect(cleanText('a\u001b]0;owned\u0007b')).toBe('ab');
    expect(cleanText('\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\ here')).toBe(
      'click here',
    );
    expect(cleanText('x\u001b]0;never ended')).toBe('x0;never ended');
  });

  it('makes every other control character visible', () => {
    expect(cleanText('a\u0000b\u0007c\u0008d\u007fe\u001b')).toBe(
      'a\u2400b\u2407c\u2408d\u2421e\u241b',
    );
    expect(cleanText('8-bit CSI \u009b31m')).toBe('8-bit CSI \ufffd31m');
  });

  it('cleans lines joined by LF exactly as it cleans each alone', () => {
    const parts = [
      'a',
      ' ',
      '\u001b[31m',
      '\u001b]0;t\u0007',
      '\u001b]',
      '\u001b',
      '[',
      'm',
      '\u0000',
      '\t',
      '\u009b',
      'é',
    ];
    let seed = 7;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return parts[seed % parts.length] ?? '';
    };
    const lines = Array.from({ length: 500 }, () =>
      Array.from({ length: seed % 9 }, pick).join(''),
    );
    expect(cleanText(lines.join('\n'))).toBe(lines.map(cleanText).join('\n'));
  });

  it('stays linear on a line of unfinished escapes', () => {
    const hostile = '\u001b]'.repeat(LINE_LIMIT / 2);
    const started = performance.now();
    const clean = cleanText(hostile);
    expect(performance.now() - started).toBeLessThan(500);
    expect(clean).not.toContain('\u001b');
  });

  it('cuts a long line between UTF-8 sequences', () => {
    const bytes = Buffer.concat([Buffer.alloc(LINE_LIMIT - 1, 0x61), Buffer.from('é€')]);
    const at = cutPoint(bytes);
    expect(at).toBe(LINE_LIMIT - 1);
    expect(bytes.subarray(0, at).toString()).not.toContain('\ufffd');
  });
});
