/**
 * The huge build log of the log viewer's scenarios: a real sbuild log repeated to about
 * 200 MB (4.2 million lines), with hostile bytes in every copy (bytes that are not UTF-8, a
 * NUL, colour escapes, a lone CR and a CRLF) and a line of 70 KiB, past what the viewer
 * shows of a line, every fiftieth copy; its last line, with no end of line, is the only one
 * with LAST_NEEDLE. It is kept beside the bench's data (which each scenario removes) and
 * made again only when missing or of another size: writing it takes seconds, not minutes.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const FIXTURE = resolve(
  import.meta.dirname,
  '../../test/unit/fixtures/real-work/ddt-hello-success.build',
);

/** Only the last line has it. */
export const LAST_NEEDLE = 'the-last-line-of-the-huge-log';

/** Queries the scenarios search for, with what grep is asked to do the same. */
export const HUGE_QUERIES = [
  { query: LAST_NEEDLE, caseSensitive: true, what: 'one hit, on the last line' },
  { query: 'dpkg-source', caseSensitive: true, what: '5 lines in each copy of the log' },
  { query: 'SETTING UP', caseSensitive: false, what: 'case ignored, 33 lines a copy' },
] as const;

export interface HugeLog {
  path: string;
  name: string;
  size: number;
  lines: number;
}

const HOSTILE = Buffer.concat([
  Buffer.from('bad bytes: '),
  Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x20, 0x00, 0x20]),
  Buffer.from('\u001b[31mE: coloured\u001b[0m and a lone CR\rafter it, then CRLF\r\n'),
]);
const LONG = Buffer.from(`long: ${'x'.repeat(70 * 1024)}\n`);

function countLines(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) n++;
  // A lone CR ends a line for the viewer too.
  for (let at = bytes.indexOf(13); at !== -1; at = bytes.indexOf(13, at + 1)) {
    if (bytes[at + 1] !== 10) n++;
  }
  return n;
}

/** Where the huge log lives for `root` (the sandbox's chroot), made if needed. */
export async function hugeLog(root: string, size: number): Promise<HugeLog> {
  const dir = join(root, 'var/tmp/debusine-bench-kept');
  mkdirSync(dir, { recursive: true });
  const name = `huge_1.0_amd64-${String(Math.round(size / 1e6))}MB.build`;
  const path = join(dir, name);
  const real = readFileSync(FIXTURE);
  const copy = Buffer.concat([real, HOSTILE]);
  const copies = Math.max(1, Math.floor((size - LAST_NEEDLE.length) / copy.length));
  const longs = Math.floor(copies / 50);
  const last = Buffer.from(`${LAST_NEEDLE}: the end`);
  const total = copies * copy.length + longs * LONG.length + last.length;
  const lines = copies * countLines(copy) + longs + 1;
  if (existsSync(path) && statSync(path).size === total) return { path, name, size: total, lines };
  const file = await open(path, 'w');
  try {
    // 8 MiB at a time: a few dozen writes.
    const batch = Math.max(1, Math.floor((8 * 2 ** 20) / copy.length));
    for (let n = 0; n < copies;) {
      const parts: Buffer[] = [];
      for (let k = 0; k < batch && n < copies; k++, n++) {
        parts.push(copy);
        if ((n + 1) % 50 === 0) parts.push(LONG);
      }
      await file.write(Buffer.concat(parts));
    }
    await file.write(last);
  } finally {
    await file.close();
  }
  return { path, name, size: total, lines };
}
