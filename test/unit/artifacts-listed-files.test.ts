/**
 * The files a .changes or .dsc lists are checked against the files on disk (size, md5,
 * sha1, sha256) before anything is sent, with errors naming the control file, the line, the
 * file, what is listed and what was found; and an upload that fails the checks sends no
 * request at all. Fixtures are made by dpkg-buildpackage and dpkg-source, then edited.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectKind } from '../../src/main/artifacts/local/detect';
import { parseControlFileText } from '../../src/main/artifacts/local/debian-files';
import { CATEGORIES } from '../../src/main/artifacts/local/kind-data';
import {
  createSourcePackageFromDsc,
  createUpload,
} from '../../src/main/artifacts/local/kinds-debian';
import { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { DebusineError } from '../../src/shared/errors';
import { useCountingServer } from '../support/counting-server';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';
import { rejection } from '../support/clients';

const skip = missingDebianTools();
// Built while collecting, as in artifacts-kinds.test.ts: a few seconds, not a test's time.
if (!skip) debianFixtures();

interface Set {
  dir: string;
  changes: string;
  dsc: string;
  tarball: string;
  text: (path: string) => string;
}

/** A copy of the fixture upload in a directory of its own, to edit. */
function copySet(): Set {
  const fx = debianFixtures();
  const dir = mkdtempSync(join(tmpdir(), 'ddt-listed-'));
  for (const file of [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs]) {
    copyFileSync(file, join(dir, basename(file)));
  }
  return {
    dir,
    changes: join(dir, basename(fx.changes)),
    dsc: join(dir, basename(fx.dsc)),
    tarball: join(dir, basename(fx.sourceTarball)),
    text: (path) => readFileSync(path, 'utf8'),
  };
}

/** The 1-based line of the entry for `name` in `field`, and its words. */
function entryLine(text: string, field: string, name: string): { line: number; words: string[] } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${field}:`));
  for (let i = start + 1; i < lines.length && (lines[i] ?? '').startsWith(' '); i++) {
    const words = (lines[i] ?? '').trim().split(/\s+/);
    if (words.at(-1) === name) return { line: i + 1, words };
  }
  throw new Error(`no ${name} in ${field}`);
}

/** Replaces the first column (the checksum) of one entry. */
function setChecksum(path: string, field: string, name: string, digest: string): number {
  const text = readFileSync(path, 'utf8');
  const { line, words } = entryLine(text, field, name);
  const lines = text.split('\n');
  lines[line - 1] = ` ${[digest, ...words.slice(1)].join(' ')}`;
  writeFileSync(path, lines.join('\n'));
  return line;
}

function removeField(path: string, field: string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${field}:`));
  let end = start + 1;
  while (end < lines.length && (lines[end] ?? '').startsWith(' ')) end++;
  lines.splice(start, end - start);
  writeFileSync(path, lines.join('\n'));
}

/** Flips one byte: same size, other content. */
function corrupt(path: string): void {
  const data = readFileSync(path);
  data[data.length >> 1] = (data[data.length >> 1] ?? 0) ^ 0xff;
  writeFileSync(path, data);
}

const digest = (algorithm: string, path: string) =>
  createHash(algorithm).update(readFileSync(path)).digest('hex');

describe.skipIf(skip)('a .changes is checked against the files it lists', () => {
  it('refuses a listed file with another sha256 of the same size, naming line, file and both sums', async () => {
    const set = copySet();
    const name = basename(set.tarball);
    const listed = entryLine(set.text(set.changes), 'Checksums-Sha256', name);
    corrupt(set.tarball);
    const error = await rejection(createUpload({ changesFile: set.changes }));
    expect(error.code).toBe('validation');
    expect(error.message).toContain(
      `${basename(set.changes)} line ${String(listed.line)} (Checksums-Sha256): ${name} has sha256 ` +
        `${digest('sha256', set.tarball)}, the .changes lists ${listed.words[0] ?? ''}`,
    );
    expect(error.details).toMatchObject({ file: set.tarball, rule: 'listed-file.checksum' });
    // Detection shows it next to the file, and builds nothing.
    const detection = await detectKind([set.dir]);
    expect(detection.kind).toBe('upload');
    expect(detection.artifact).toBeNull();
    expect(detection.error?.details?.file).toBe(set.tarball);
  });

  it('refuses a listed file of another size', async () => {
    const set = copySet();
    const name = basename(set.tarball);
    const size = statSync(set.tarball).size;
    writeFileSync(set.tarball, Buffer.concat([readFileSync(set.tarball), Buffer.from('x')]));
    const { line } = entryLine(set.text(set.changes), 'Checksums-Sha256', name);
    const error = await rejection(createUpload({ changesFile: set.changes }));
    expect(error.message).toContain(
      `${basename(set.changes)} line ${String(line)} (Checksums-Sha256): ${name} is ${String(size + 1)} bytes, the .changes lists ${String(size)}`,
    );
    expect(error.details).toMatchObject({ file: set.tarball, rule: 'listed-file.size' });
  });

  it('refuses a .changes that lists a wrong size in every list', async () => {
    const set = copySet();
    const name = basename(set.tarball);
    const size = statSync(set.tarball).size;
    const text = set
      .text(set.changes)
      .split('\n')
      .map((l) =>
        l.endsWith(` ${name}`) ? l.replace(` ${String(size)} `, ` ${String(size + 7)} `) : l,
      )
      .join('\n');
    writeFileSync(set.changes, text);
    const error = await rejection(createUpload({ changesFile: set.changes }));
    expect(error.message).toContain(
      `${name} is ${String(size)} bytes, the .changes lists ${String(size + 7)}`,
    );
  });

  it.each([
    ['Files', 'md5', '0123456789abcdef0123456789abcdef'],
    ['Checksums-Sha1', 'sha1', '0123456789abcdef0123456789abcdef01234567'],
    ['Checksums-Sha256', 'sha256', 'ab'.repeat(32)],
  ])('refuses a wrong checksum in %s alone', async (field, algorithm, wrong) => {
    const set = copySet();
    const name = basename(set.tarball);
    const line = setChecksum(set.changes, field, name, wrong);
    const error = await rejection(createUpload({ changesFile: set.changes }));
    expect(error.message).toBe(
      `${basename(set.changes)} line ${String(line)} (${field}): ${name} has ${algorithm} ` +
        `${digest(algorithm, set.tarball)}, the .changes lists ${wrong}`,
    );
    expect(error.details).toMatchObject({ file: set.tarball, line, field });
  });

  it.each(['Files', 'Checksums-Sha256'])('requires %s', async (field) => {
    const set = copySet();
    removeField(set.changes, field);
    const error = await rejection(createUpload({ changesFile: set.changes }));
    expect(error.message).toContain(`does not contain ${field} field`);
    expect(error.details).toMatchObject({ field, rule: 'changes-required-field' });
    const detection = await detectKind([set.dir]);
    expect(detection.error?.details?.field).toBe(field);
  });

  it('names every wrong file, each with its own problem', async () => {
    const set = copySet();
    corrupt(set.tarball);
    const deb = join(set.dir, basename(debianFixtures().debs[1] ?? ''));
    setChecksum(set.changes, 'Files', basename(deb), 'f'.repeat(32));
    const error = await rejection(createUpload({ changesFile: set.changes }));
    const problems = error.details.problems as { file: string }[];
    expect(problems.map((p) => p.file).sort()).toEqual([deb, set.tarball].sort());
  });
});

describe.skipIf(skip)('a .dsc is checked against the files it lists', () => {
  it('refuses a .dsc without Files instead of making a source package of the .dsc alone', async () => {
    const set = copySet();
    removeField(set.dsc, 'Files');
    const error = await rejection(createSourcePackageFromDsc(set.dsc));
    expect(error.message).toContain('does not contain Files field');
    expect(error.details).toMatchObject({ field: 'Files', rule: 'dsc-required-field' });
    const detection = await detectKind([set.dsc, set.tarball]);
    expect(detection.artifact).toBeNull();
    expect(detection.error?.details?.field).toBe('Files');
  });

  it('refuses a .dsc whose tarball differs on disk', async () => {
    const set = copySet();
    const name = basename(set.tarball);
    const listed = entryLine(set.text(set.dsc), 'Checksums-Sha256', name);
    corrupt(set.tarball);
    const error = await rejection(createSourcePackageFromDsc(set.dsc));
    expect(error.message).toContain(
      `${basename(set.dsc)} line ${String(listed.line)} (Checksums-Sha256): ${name} has sha256 ` +
        `${digest('sha256', set.tarball)}, the .dsc lists ${listed.words[0] ?? ''}`,
    );
    // The other two lists disagree too, and the message says where.
    expect(error.message).toMatch(/Checksums-Sha1\).*Files\)|Files\).*Checksums-Sha1\)/);
  });

  it('requires Checksums-Sha256 in a 3.0 .dsc, but not Checksums-Sha1', async () => {
    const set = copySet();
    removeField(set.dsc, 'Checksums-Sha1');
    await expect(createSourcePackageFromDsc(set.dsc)).resolves.toBeInstanceOf(LocalArtifact);
    removeField(set.dsc, 'Checksums-Sha256');
    const error = await rejection(createSourcePackageFromDsc(set.dsc));
    expect(error.message).toContain('does not contain Checksums-Sha256 field');
    expect(error.message).toContain('Format 3.0 (native)');
  });

  it('accepts a 1.0 .dsc with Files alone, and checks its md5 sums', async () => {
    const set = copySet();
    removeField(set.dsc, 'Checksums-Sha1');
    removeField(set.dsc, 'Checksums-Sha256');
    writeFileSync(set.dsc, set.text(set.dsc).replace('Format: 3.0 (native)', 'Format: 1.0'));
    await expect(createSourcePackageFromDsc(set.dsc)).resolves.toBeInstanceOf(LocalArtifact);
    const line = setChecksum(set.dsc, 'Files', basename(set.tarball), 'e'.repeat(32));
    const error = await rejection(createSourcePackageFromDsc(set.dsc));
    expect(error.message).toContain(`${basename(set.dsc)} line ${String(line)} (Files)`);
  });

  it('checks the .dsc inside an upload too', async () => {
    const set = copySet();
    const line = setChecksum(set.dsc, 'Files', basename(set.tarball), 'e'.repeat(32));
    // The .changes must list the edited .dsc, or it would fail on the .dsc first.
    for (const [field, algorithm] of [
      ['Files', 'md5'],
      ['Checksums-Sha1', 'sha1'],
      ['Checksums-Sha256', 'sha256'],
    ] as const) {
      setChecksum(set.changes, field, basename(set.dsc), digest(algorithm, set.dsc));
    }
    const error = await rejection(createUpload({ changesFile: set.changes }));
    expect(error.message).toContain(`${basename(set.dsc)} line ${String(line)} (Files)`);
  });
});

describe('names in file lists', () => {
  const head = 'Source: a\nVersion: 1\nFiles:\n';
  it.each([
    ['../secret', 'more than one path component'],
    ['a/b.deb', 'more than one path component'],
    ['..', 'relative directory'],
    ['.', 'relative directory'],
    ['a\\b.deb', 'more than one path component'],
    ['.hidden', 'dpkg does not allow'],
    ['x\u0001y', 'control character'],
  ])('refuses %j, naming the line', (name, why) => {
    const text = `${head} d41d8cd98f00b204e9800998ecf8427e 0 ok.tar.xz\n d41d8cd98f00b204e9800998ecf8427e 0 ${name}\n`;
    let error: unknown;
    try {
      parseControlFileText('dsc', text, 'a.dsc');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DebusineError);
    expect((error as DebusineError).message).toContain(
      'a.dsc line 5 (Files): not a plain file name',
    );
    expect((error as DebusineError).message).toContain(why);
    expect((error as DebusineError).details).toMatchObject({ line: 5, field: 'Files' });
  });

  it('reads a list of 200,000 files without overflowing the call stack', () => {
    const md5 = 'd41d8cd98f00b204e9800998ecf8427e';
    const lines: string[] = [];
    for (let i = 0; i < 200_000; i++) lines.push(` ${md5} 0 f${String(i)}.tar`);
    const parsed = parseControlFileText('dsc', `${head}${lines.join('\n')}\n`, 'a.dsc');
    expect(parsed.files).toHaveLength(200_000);
  });

  it('refuses a NUL in a name, naming the line', () => {
    const text = `${head} d41d8cd98f00b204e9800998ecf8427e 0 a\0b\n`;
    expect(() => parseControlFileText('dsc', text, 'a.dsc')).toThrow(/a\.dsc:4: a NUL byte/);
  });

  it('refuses a file listed twice, or listed in one list and not another', () => {
    const md5 = 'd41d8cd98f00b204e9800998ecf8427e';
    expect(() =>
      parseControlFileText('dsc', `${head} ${md5} 0 a.tar\n ${md5} 0 a.tar\n`, 'a.dsc'),
    ).toThrow('a.dsc line 5 (Files): a.tar is listed twice (also line 4)');
    const sha = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(() =>
      parseControlFileText(
        'dsc',
        `Format: 3.0 (quilt)\n${head} ${md5} 0 a.tar\n ${md5} 0 b.tar\nChecksums-Sha256:\n ${sha} 0 a.tar\n`,
        'a.dsc',
      ),
    ).toThrow('a.dsc line 6 (Files): b.tar is listed in Files but not in Checksums-Sha256');
  });
});

describe.skipIf(skip)('a refused upload sends nothing', () => {
  const server = useCountingServer();

  it('refuses, without a single request, an upload whose file changed after detection', async () => {
    const set = copySet();
    const artifact = await createUpload({ changesFile: set.changes });
    // Same size and same modification time: only the content (and ctime) changed.
    const { atime, mtime } = statSync(set.tarball);
    corrupt(set.tarball);
    utimesSync(set.tarball, atime, mtime);
    const error = await rejection(uploadArtifact(server().transport, artifact));
    expect(error.details).toMatchObject({ file: set.tarball, rule: 'listed-file.checksum' });
    expect(server().requests).toEqual([]);
  });

  it('refuses, without a single request, an upload artifact built by hand around a lying .changes', async () => {
    const set = copySet();
    const changes = parseControlFileText('changes', set.text(set.changes), basename(set.changes));
    corrupt(set.tarball);
    const artifact = new LocalArtifact(CATEGORIES.upload, {
      type: 'dpkg',
      changes_fields: changes.fields,
    });
    await artifact.addLocalFile(set.changes);
    for (const entry of changes.files) await artifact.addLocalFile(join(set.dir, entry.name));
    const error = await rejection(uploadArtifact(server().transport, artifact));
    expect(error.details.file).toBe(set.tarball);
    expect(server().requests).toEqual([]);
  });

  it('uploads the same files untouched', async () => {
    const set = copySet();
    const artifact = await createUpload({ changesFile: set.changes });
    await uploadArtifact(server().transport, artifact);
    expect(server().requests).toEqual(['POST /api/1.0/artifact/']);
  });
});
