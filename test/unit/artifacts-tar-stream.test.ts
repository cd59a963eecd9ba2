/**
 * The streaming tar reader gives names exactly as the archive has them, and refuses
 * whatever another tar tool could read differently.
 */
import { describe, expect, it } from 'vitest';
import { readTarStream, TarFormatError, type TarEntry } from '../../src/main/artifacts/tar-stream';
import { artifactPathProblem } from '../../src/main/artifacts/artifact-paths';
import { paxRecord, tarBytes } from '../support/tar-build';

async function read(archive: Buffer, pieces = 7): Promise<[TarEntry, string][]> {
  const seen: [TarEntry, string][] = [];
  const size = Math.ceil(archive.length / pieces);
  const chunks = Array.from({ length: pieces }, (_, i) =>
    archive.subarray(i * size, (i + 1) * size),
  );
  async function* source() {
    for (const chunk of chunks) yield Promise.resolve(chunk);
  }
  await readTarStream(source(), {
    entry(entry) {
      const parts: Buffer[] = [];
      const record: [TarEntry, string] = [entry, ''];
      seen.push(record);
      return {
        write(chunk) {
          parts.push(Buffer.from(chunk));
          return undefined;
        },
        end() {
          record[1] = Buffer.concat(parts).toString();
          return undefined;
        },
      };
    },
  });
  return seen;
}

describe('readTarStream', () => {
  it('reads ustar, pax and GNU long names, in any chunking', async () => {
    const long = `${'d'.repeat(150)}/${'f'.repeat(120)}`;
    const archive = tarBytes([
      { name: 'a.txt', body: 'a' },
      { name: long, body: 'long' },
      { name: 'L', type: 'L', body: 'gnu/long/name.txt\0' },
      { name: 'ignored', body: 'gnu' },
      { name: 'd/', type: '5' },
    ]);
    for (const pieces of [1, 3, 1000]) {
      const got = await read(archive, pieces);
      expect(got.map(([e, body]) => [e.name, e.type, body])).toEqual([
        ['a.txt', 'file', 'a'],
        [long, 'file', 'long'],
        ['gnu/long/name.txt', 'file', 'gnu'],
        ['d/', 'directory', ''],
      ]);
    }
  });

  it('keeps a NUL byte of a pax name, for the path check to refuse', async () => {
    const [[entry] = []] = await read(tarBytes([{ name: 'a.txt\0.evil', body: 'x' }]));
    expect(entry?.name).toBe('a.txt\0.evil');
    expect(artifactPathProblem(entry?.name ?? '')).toBe('contains a NUL byte');
  });

  const malformed: [string, Buffer, RegExp][] = [
    [
      'a bad header checksum',
      (() => {
        const archive = tarBytes([{ name: 'a.txt', body: 'a' }]);
        archive[0] = 'b'.charCodeAt(0);
        return archive;
      })(),
      /bad checksum/,
    ],
    [
      'data after the end',
      Buffer.concat([tarBytes([{ name: 'a.txt', body: 'a' }]), tarBytes([{ name: 'b' }])]),
      /data after its end/,
    ],
    [
      'a global header that renames every member',
      tarBytes([
        { name: 'g', type: 'g', body: paxRecord('path', '../evil') },
        { name: 'a.txt', body: 'a' },
      ]),
      /global header/,
    ],
    [
      'a sparse file',
      tarBytes([
        { name: 'x', type: 'x', body: paxRecord('GNU.sparse.map', '0,10') },
        { name: 'a.txt', body: 'a' },
      ]),
      /sparse/,
    ],
    [
      'an archive cut in a member',
      tarBytes([{ name: 'a.txt', body: 'x'.repeat(600) }]).subarray(0, 700),
      /middle of "a.txt"/,
    ],
    [
      'an archive cut in a header',
      tarBytes([{ name: 'a.txt', body: 'a' }]).subarray(0, 100),
      /middle of a header/,
    ],
  ];
  it.each(malformed)('refuses %s', async (_name, archive, message) => {
    const error = await read(archive).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TarFormatError);
    expect((error as Error).message).toMatch(message);
  });
});
