/**
 * Tarballs that name a member one way to the app and another way to other tar tools. The
 * app keeps a checked tarball (`downloadArtifact(..., {tarball: true})`) for the user to
 * unpack later with whatever tool they like, so a member the app checked as `a.txt` must
 * not be `../evil.txt` to Python's tarfile or to GNU tar. Each hostile archive is read by
 * the real tools here, so that the disagreement the app refuses is shown, not assumed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { downloadArtifact } from '../../src/main/artifacts/transfer/download';
import { readTarStream, TarFormatError } from '../../src/main/artifacts/formats/tar-stream';
import type { FakeFile } from '../support/fake-debusine';
import { expectRefused, hostileServer, playground } from '../support/hostile-downloads';
import { paxData, rawMember, rawTar, tarGz, type RawHeader } from '../support/tar-build';

const server = hostileServer();

const CONTENT = 'x';
/** A member hidden in another's content, for a reader that takes the outer one's size as 0. */
const HIDDEN = rawMember({ name: '../evil.txt' }, CONTENT);
const member = (name: Buffer | string, fields: Partial<RawHeader> = {}) =>
  rawMember({ name, ...fields }, fields.type === '2' ? '' : CONTENT);
const pax = (...records: [string, string | Buffer][]) =>
  rawMember({ name: 'PaxHeader', type: 'x' }, paxData(...records));
const gnuLong = (type: 'L' | 'K', value: string) =>
  rawMember({ name: '././@LongLink', type }, `${value}\0`);

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'ddt-tar-names-'));
}

/**
 * What Python's tarfile lists: each member's name, with " -> target" for a link, as the
 * bytes it would give the filesystem (os.fsencode undoes its surrogateescape decoding).
 */
const PYTHON_LIST = `
import os, sys, tarfile
with tarfile.open(sys.argv[1]) as archive:
    for m in archive:
        line = os.fsencode(m.name)
        if m.issym() or m.islnk():
            line += b" -> " + os.fsencode(m.linkname)
        sys.stdout.buffer.write(line + b"\\n")
`;

function lines(out: Buffer): Buffer[] {
  const all: Buffer[] = [];
  let start = 0;
  for (let i = out.indexOf(0x0a); i !== -1; i = out.indexOf(0x0a, start)) {
    all.push(out.subarray(start, i));
    start = i + 1;
  }
  return all;
}

function pythonLists(file: string): Buffer[] {
  const run = spawnSync('python3', ['-c', PYTHON_LIST, file], { env: { PYTHONUTF8: '1' } });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  return lines(run.stdout);
}

/**
 * What GNU tar lists (`tar -tvf`, names unquoted), with " -> target" for a link; `paxBlind`
 * tells it to ignore the pax records that rename or resize a member, as a tar that does not
 * know pax would.
 */
function gnuTarLists(file: string, paxBlind = false): Buffer[] {
  const blind = paxBlind ? ['--pax-option=delete=path,delete=linkpath,delete=size'] : [];
  const run = spawnSync('tar', [...blind, '--quoting-style=literal', '-tvf', file], {
    env: { LC_ALL: 'C.UTF-8' },
  });
  return lines(run.stdout).map((line) => {
    // "-rw-r--r-- 0/0   1 1970-01-01 00:00 name": the name follows the time.
    const text = line.toString('latin1');
    const at = /^\S+ \S+ +\d+ \d{4}-\d\d-\d\d \d\d:\d\d /.exec(text);
    const name = at ? line.subarray(at[0].length) : line;
    return Buffer.from(name.toString('latin1').replace(' link to ', ' -> '), 'latin1');
  });
}

function saved(archive: Buffer): string {
  const file = join(scratch(), 'hostile.tar');
  writeFileSync(file, archive);
  return file;
}

async function appReads(archive: Buffer): Promise<unknown> {
  async function* source() {
    yield Promise.resolve(archive);
  }
  return readTarStream(source(), {
    entry: () => ({ write: () => undefined, end: () => undefined }),
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
}

interface Ambiguous {
  /** The archive, uncompressed. */
  archive: Buffer;
  /** The member as the app's reader took it before it refused such archives. */
  app: Buffer | string;
  python: (Buffer | string)[];
  gnuTar: (Buffer | string)[];
  /** What GNU tar lists when told to ignore pax records, where that differs. */
  paxBlind?: (Buffer | string)[];
  refusal: RegExp;
  /** The member's content, when not CONTENT. */
  content?: Buffer;
  /** Whether the artifact could declare the member: not a link, which it refuses anyway. */
  download: boolean;
}

const AMBIGUOUS: Record<string, Ambiguous> = {
  'a GNU long name, then a pax path, for one member': {
    archive: rawTar([gnuLong('L', '../evil.txt'), pax(['path', 'a.txt']), member('a.txt')]),
    app: 'a.txt',
    python: ['../evil.txt'],
    gnuTar: ['a.txt'],
    refusal: /names a member two ways: a GNU long name "\.\.\/evil\.txt" and a pax path "a\.txt"/,
    download: true,
  },
  'a GNU long link name, then a pax linkpath, for one link': {
    archive: rawTar([
      gnuLong('K', '/etc/passwd'),
      pax(['linkpath', 'a.txt']),
      member('l', { type: '2', link: 'a.txt' }),
    ]),
    app: 'l -> a.txt',
    python: ['l -> /etc/passwd'],
    gnuTar: ['l -> a.txt'],
    refusal: /names a link target two ways: a GNU long link name "\/etc\/passwd" and a pax/,
    download: false,
  },
  'two pax headers for one member': {
    archive: rawTar([pax(['path', '../evil.txt']), pax(['path', 'a.txt']), member('a.txt')]),
    app: 'a.txt',
    python: ['../evil.txt'],
    gnuTar: ['a.txt'],
    refusal: /has two pax headers for one member/,
    download: true,
  },
  'two GNU long names for one member': {
    archive: rawTar([gnuLong('L', '../evil.txt'), gnuLong('L', 'a.txt'), member('a.txt')]),
    app: 'a.txt',
    python: ['../evil.txt'],
    gnuTar: ['a.txt'],
    refusal: /has two GNU long names for one member/,
    download: true,
  },
  'a header and a pax path that name the member differently': {
    archive: rawTar([pax(['path', 'a.txt']), member('../evil.txt')]),
    app: 'a.txt',
    python: ['a.txt'],
    gnuTar: ['a.txt'],
    paxBlind: ['../evil.txt'],
    refusal: /names a member two ways: its header "\.\.\/evil\.txt" and a pax path "a\.txt"/,
    download: true,
  },
  'an old GNU header with bytes where ustar keeps a name prefix': {
    archive: rawTar([member('a.txt', { magic: 'gnu', prefix: '../..' })]),
    app: 'a.txt',
    python: ['../../a.txt'],
    gnuTar: ['a.txt'],
    refusal: /not ustar, but has bytes where ustar keeps a name prefix \("\.\.\/\.\."\)/,
    download: true,
  },
  'a v7 header with bytes where ustar keeps a name prefix': {
    archive: rawTar([member('a.txt', { magic: 'v7', prefix: '../..' })]),
    app: 'a.txt',
    python: ['../../a.txt'],
    gnuTar: ['a.txt'],
    refusal: /not ustar, but has bytes where ustar keeps a name prefix/,
    download: true,
  },
  'a name that is not UTF-8': {
    archive: rawTar([member(Buffer.from('a\xff.txt', 'latin1'))]),
    // Decoded with replacement, the byte 0xff became U+FFFD: a name the artifact could
    // declare, and a different file from the one the tools write.
    app: 'a\ufffd.txt',
    python: [Buffer.from('a\xff.txt', 'latin1')],
    gnuTar: [Buffer.from('a\xff.txt', 'latin1')],
    refusal: /has a member name that is not valid UTF-8 \("a\\xff\.txt", in its header\)/,
    download: true,
  },
  'a pax size that differs from the header size': {
    // The member's content is itself a header: a reader that takes the header's size (0)
    // finds a second member there.
    archive: rawTar([pax(['size', '1024']), rawMember({ name: 'a.txt', size: 0 }, HIDDEN)]),
    content: HIDDEN,
    app: 'a.txt',
    python: ['a.txt'],
    gnuTar: ['a.txt'],
    paxBlind: ['a.txt', '../evil.txt'],
    refusal: /gives "a\.txt" two sizes: 0 in its header and 1024 in a pax record/,
    download: true,
  },
};

const bytes = (view: Buffer | string) => Buffer.from(view);

describe('an archive other tar tools read differently', () => {
  it.each(Object.entries(AMBIGUOUS))('%s: the tools disagree, the app refuses', async (_n, c) => {
    const file = saved(c.archive);
    const python = pythonLists(file);
    const gnuTar = gnuTarLists(file);
    expect(python).toEqual(c.python.map(bytes));
    expect(gnuTar).toEqual(c.gnuTar.map(bytes));
    const views = [python, gnuTar];
    if (c.paxBlind) {
      const blind = gnuTarLists(file, true);
      expect(blind).toEqual(c.paxBlind.map(bytes));
      views.push(blind);
    }
    // The archive means something else to at least one tool than it meant to the app.
    expect(views.some((view) => !(view.length === 1 && view[0]?.equals(bytes(c.app))))).toBe(true);
    const error = await appReads(c.archive);
    expect(error).toBeInstanceOf(TarFormatError);
    expect((error as Error).message).toMatch(c.refusal);
  });

  for (const mode of ['tarball', 'archive'] as const) {
    const downloads = Object.entries(AMBIGUOUS).filter(([, c]) => c.download);
    it.each(downloads)(`%s: refused, nothing left (${mode})`, async (_name, c) => {
      const ground = playground();
      const declared = { path: String(c.app), content: c.content ?? CONTENT };
      const id = server.artifact([declared], gzipSync(c.archive));
      const refused = await expectRefused(ground, () => server.download(id, ground.dest, mode), {
        code: 'bad-response',
        rule: 'archive-format',
        message: c.refusal,
      });
      const what =
        mode === 'tarball'
          ? `artifact-${String(id)}\\.tar\\.gz of artifact`
          : 'archive of artifact';
      expect(refused.message).toMatch(new RegExp(`${what} ${String(id)} was refused: it `));
    });
  }
});

const PYTHON_WRITE = `
import os, sys, tarfile
out, src, fmt, *names = sys.argv[1:]
with tarfile.open(out, "w:gz", format=getattr(tarfile, fmt)) as archive:
    for name in names:
        archive.add(os.path.join(src, name), arcname=name)
`;

const PYTHON_EXTRACT = `
import sys, tarfile
with tarfile.open(sys.argv[1]) as archive:
    if hasattr(tarfile, "data_filter"):
        archive.extractall(sys.argv[2], filter="data")
    else:
        archive.extractall(sys.argv[2])
`;

function run(command: string, args: string[]): void {
  const done = spawnSync(command, args, { env: { PYTHONUTF8: '1', LC_ALL: 'C.UTF-8' } });
  if (done.status !== 0) {
    throw new Error(`${command} failed (${String(done.status)}): ${done.stderr.toString()}`);
  }
}

/** Every file under `root`, as a path relative to it with "/" between folders. */
function filesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(root);
  return found.sort();
}

describe('an honest tarball with long names', () => {
  // Over 100 bytes; not ASCII; and not ASCII with the 100th byte inside a character, where
  // GNU tar's stand-in in the header cuts the character in two.
  const FILES: FakeFile[] = [
    { path: 'short.txt', content: 'short' },
    { path: `${'d'.repeat(120)}/${'n'.repeat(60)}.txt`, content: 'long' },
    { path: 'é.txt', content: 'accent' },
    { path: `xy/${'é'.repeat(60)}.txt`, content: 'long accent' },
  ];
  const names = FILES.map((f) => f.path);

  function sources(): string {
    const src = scratch();
    for (const file of FILES) {
      mkdirSync(join(src, file.path, '..'), { recursive: true });
      writeFileSync(join(src, file.path), file.content ?? '');
    }
    return src;
  }

  function written(command: string, args: (out: string, src: string) => string[]): Buffer {
    const out = join(scratch(), 'written.tar.gz');
    run(command, args(out, sources()));
    return readFileSync(out);
  }

  const WRITERS: [string, () => Buffer][] = [
    [
      'pax paths only, as tar-build writes them',
      () => tarGz(FILES.map((f) => ({ name: f.path, body: f.content ?? '' }))),
    ],
    [
      'GNU long names only, with GNU stand-ins',
      () =>
        gzipSync(
          rawTar(
            FILES.flatMap((f) => {
              const name = Buffer.from(f.path);
              const long = name.length > 100 ? [gnuLong('L', f.path)] : [];
              return [
                ...long,
                rawMember({ name: name.subarray(0, 100), magic: 'gnu' }, f.content ?? ''),
              ];
            }),
          ),
        ),
    ],
    [
      'Python tarfile, pax format',
      () =>
        written('python3', (out, src) => ['-c', PYTHON_WRITE, out, src, 'PAX_FORMAT', ...names]),
    ],
    [
      'Python tarfile, GNU format',
      () =>
        written('python3', (out, src) => ['-c', PYTHON_WRITE, out, src, 'GNU_FORMAT', ...names]),
    ],
    [
      'GNU tar, posix format',
      () =>
        written('tar', (out, src) => ['--format=posix', '-czf', out, '-C', src, '--', ...names]),
    ],
    [
      'GNU tar, gnu format',
      () => written('tar', (out, src) => ['--format=gnu', '-czf', out, '-C', src, '--', ...names]),
    ],
  ];

  it.each(WRITERS)('%s: kept, and unpacked alike by Python and GNU tar', async (_n, write) => {
    const ground = playground();
    const id = server.artifact(FILES, write());
    await downloadArtifact(server.fake.transport(), id, ground.dest, { tarball: true });
    const kept = join(ground.dest, `artifact-${String(id)}.tar.gz`);
    const byPython = scratch();
    const byGnuTar = scratch();
    run('python3', ['-c', PYTHON_EXTRACT, kept, byPython]);
    run('tar', ['-xzf', kept, '-C', byGnuTar]);
    const declared = [...names].sort();
    expect(filesUnder(byPython)).toEqual(declared);
    expect(filesUnder(byGnuTar)).toEqual(declared);
    for (const file of FILES) {
      expect(readFileSync(join(byPython, file.path), 'utf8')).toBe(file.content);
      expect(readFileSync(join(byGnuTar, file.path), 'utf8')).toBe(file.content);
    }
  });
});
