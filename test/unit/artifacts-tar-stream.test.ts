/**
 * The streaming tar reader gives names exactly as the archive has them, and refuses
 * whatever another tar tool could read differently.
 */
import { describe, expect, it } from 'vitest';
import {
  readTarStream,
  TarFormatError,
  type TarEntry,
} from '../../src/main/artifacts/formats/tar-stream';
import { artifactPathProblem } from '../../src/main/artifacts/formats/artifact-paths';
import {
  paxData,
  paxRecord,
  pythonStandIn,
  rawMember,
  rawTar,
  tarBytes,
  type RawHeader,
} from '../support/tar-build';

const member = (name: Buffer | string, fields: Partial<RawHeader> = {}, body = 'x') =>
  rawMember({ name, ...fields }, body);
const pax = (...records: [string, string | Buffer][]) =>
  rawMember({ name: 'PaxHeader', type: 'x' }, paxData(...records));
const gnuLong = (type: 'L' | 'K', value: Buffer | string) =>
  rawMember({ name: '././@LongLink', type }, Buffer.concat([Buffer.from(value), Buffer.alloc(1)]));
const latin1 = (text: string) => Buffer.from(text, 'latin1');

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
      { name: 'gnu/long/name.txt', body: 'gnu' },
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

  it('takes a long name beside the stand-in its writer put in the header', async () => {
    // Python's tarfile (the server's) puts the name with "?" for each non-ASCII character,
    // cut to 100 bytes; GNU tar and Python's GNU format put its first 100 bytes, even when
    // that cuts a character in two.
    const long = `xy/${'é'.repeat(60)}.txt`;
    const cut = Buffer.from(long).subarray(0, 100);
    expect(cut.toString()).toContain('\ufffd');
    const archive = rawTar([
      pax(['path', 'é.txt']),
      member(pythonStandIn('é.txt')),
      pax(['path', long]),
      member(pythonStandIn(long)),
      pax(['path', `${long}.2`]),
      member(Buffer.from(`${long}.2`).subarray(0, 100)),
      gnuLong('L', `${long}.3`),
      member(Buffer.from(`${long}.3`).subarray(0, 100)),
      pax(['path', 'same.txt']),
      member('same.txt'),
      gnuLong('K', `${long}.4`),
      member('l', { type: '2', link: Buffer.from(`${long}.4`).subarray(0, 100) }, ''),
    ]);
    const got = await read(archive);
    expect(got.map(([e]) => [e.name, e.linkname])).toEqual([
      ['é.txt', ''],
      [long, ''],
      [`${long}.2`, ''],
      [`${long}.3`, ''],
      ['same.txt', ''],
      ['l', `${long}.4`],
    ]);
  });

  it('keeps a byte order mark at the start of a name', async () => {
    // A UTF-8 decoder drops it unless told not to: "\ufeffa.txt" would become "a.txt",
    // which is not the file Python's tarfile or GNU tar write.
    const [[entry] = []] = await read(rawTar([member('\ufeffa.txt')]));
    expect(entry?.name).toBe('\ufeffa.txt');
  });

  it('reads a pax size beside a header size of 0 when the header cannot hold it', async () => {
    // Python's tarfile writes sizes of 8 GiB and more only in the pax record.
    const huge = 8 ** 11;
    const archive = rawTar([pax(['size', String(huge)]), member('a.txt', { size: 0 }, 'x')]);
    const error = await read(archive).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ends in the middle of "a\.txt"/);
  });

  const malformed: [string, Buffer, RegExp][] = [
    [
      'a pax path, then a GNU long name, for one member',
      rawTar([pax(['path', 'a.txt']), gnuLong('L', '../evil.txt'), member('a.txt')]),
      /names a member two ways: a GNU long name "\.\.\/evil\.txt" and a pax path "a\.txt"/,
    ],
    [
      'a GNU long name and a pax path that agree',
      rawTar([gnuLong('L', 'a.txt'), pax(['path', 'a.txt']), member('a.txt')]),
      /names a member two ways/,
    ],
    [
      'a pax linkpath, then a GNU long link name, for one link',
      rawTar([
        pax(['linkpath', 'a.txt']),
        gnuLong('K', '/etc/passwd'),
        member('l', { type: '2', link: 'a.txt' }, ''),
      ]),
      /names a link target two ways: a GNU long link name "\/etc\/passwd" and a pax linkpath "a\.txt"/,
    ],
    [
      'two GNU long link names for one link',
      rawTar([gnuLong('K', '/etc/passwd'), gnuLong('K', 'a.txt'), member('l', { type: '2' }, '')]),
      /has two GNU long link names for one member/,
    ],
    [
      'a link name in the header that differs from the pax linkpath',
      rawTar([pax(['linkpath', 'a.txt']), member('l', { type: '2', link: '/etc/passwd' }, '')]),
      /names a link target two ways: its header "\/etc\/passwd" and a pax linkpath "a\.txt"/,
    ],
    [
      'a ustar prefix and name that differ from the pax path',
      rawTar([pax(['path', 'a/b.txt']), member('b.txt', { prefix: 'c' })]),
      /names a member two ways: its header "c\/b\.txt" and a pax path "a\/b\.txt"/,
    ],
    [
      'a header name that differs from the GNU long name',
      rawTar([gnuLong('L', 'a.txt'), member('../evil.txt')]),
      /names a member two ways: its header "\.\.\/evil\.txt" and a GNU long name "a\.txt"/,
    ],
    [
      'a pax header that gives "path" twice',
      rawTar([pax(['path', '../evil.txt'], ['path', 'a.txt']), member('a.txt')]),
      /has a pax header that gives "path" twice/,
    ],
    [
      'an extended header that belongs to no member',
      rawTar([member('a.txt'), gnuLong('L', '../evil.txt')]),
      /extended header that belongs to no member/,
    ],
    [
      'an extended header, and no end-of-archive blocks',
      Buffer.concat([member('a.txt'), pax(['path', '../evil.txt'])]),
      /extended header that belongs to no member/,
    ],
    [
      'records hidden after the padding of a pax header',
      rawTar([
        rawMember(
          { name: 'PaxHeader', type: 'x' },
          Buffer.concat([paxData(['mtime', '1']), Buffer.alloc(1), paxData(['path', '../x'])]),
        ),
        member('a.txt'),
      ]),
      /has a pax header that holds data after its padding/,
    ],
    [
      'a malformed pax record',
      rawTar([rawMember({ name: 'PaxHeader', type: 'x' }, '99 path=a.txt\n'), member('a.txt')]),
      /has a pax header that is malformed/,
    ],
    [
      'a pax header in a charset other than UTF-8',
      rawTar([pax(['hdrcharset', 'BINARY'], ['path', 'a.txt']), member('a.txt')]),
      /has a pax header in a charset other than UTF-8 \("BINARY"\)/,
    ],
    [
      'a global header in a charset other than UTF-8',
      rawTar([
        rawMember({ name: 'g', type: 'g' }, paxData(['hdrcharset', 'BINARY'])),
        member('a.txt'),
      ]),
      /in a charset other than UTF-8/,
    ],
    [
      'a pax size beside a header size of 0 that could hold it',
      rawTar([pax(['size', '1']), member('a.txt', { size: 0 }, 'x')]),
      /gives "a\.txt" two sizes: 0 in its header and 1 in a pax record/,
    ],
    [
      'a pax path that is not UTF-8',
      rawTar([pax(['path', latin1('a\xe9.txt')]), member('a?.txt')]),
      /has a member name that is not valid UTF-8 \("a\\xe9\.txt", in a pax path\)/,
    ],
    [
      'a GNU long name that is not UTF-8',
      rawTar([gnuLong('L', latin1('a\xc3')), member(latin1('a\xc3'))]),
      /has a member name that is not valid UTF-8 \("a\\xc3", in a GNU long name\)/,
    ],
    [
      'a link name that is not UTF-8',
      rawTar([member('l', { type: '2', link: latin1('\xed\xa0\x80') }, '')]),
      /has a link target that is not valid UTF-8 \("\\xed\\xa0\\x80", in its header\)/,
    ],
    [
      'a pax key that is not UTF-8',
      rawTar([
        rawMember({ name: 'PaxHeader', type: 'x' }, latin1('10 p\xe1th=a\n')),
        member('a.txt'),
      ]),
      /has a pax header that holds a key that is not valid UTF-8/,
    ],
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
