/**
 * A hostile server's paths: in the artifact's file list and in its tarball. Each refusal
 * must leave the destination and everything around it exactly as it was, and a bad file
 * list must be refused before a single file body is requested.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadArtifact, downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import type { FakeFile } from '../support/fake-debusine';
import {
  expectRefused,
  hostileServer,
  playground,
  type Refusal,
} from '../support/hostile-downloads';
import { tarGz, type TarEntry } from '../support/tar-build';

const server = hostileServer();
const artifact = server.artifact;

const BAD_PATHS: [string, string][] = [
  ['"../../x"', '../../x'],
  ['".." in the middle', 'a/../../y'],
  ['an absolute path', '/tmp/ddt-hostile-absolute'],
  ['a NUL byte', 'a\0b'],
  ['backslashes', 'a\\..\\..\\x'],
  ['a drive letter', 'C:/x'],
  ['an empty segment', 'a//b'],
  ['a "." segment', './a'],
  ['a trailing slash', 'a/'],
  ['the empty path', ''],
  ['a segment over 255 bytes', 'x'.repeat(300)],
  ['a path over 1024 bytes', `${'abcdefgh/'.repeat(120)}z`],
];

const MODES = ['files', 'archive', 'tarball'] as const;

describe('a file list naming paths outside the artifact', () => {
  it.each(BAD_PATHS)('refuses a single file with %s, before any download', async (_n, bad) => {
    const ground = playground();
    const id = artifact([{ path: bad, content: 'evil' }]);
    const error = await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest),
      {
        code: 'bad-response',
        rule: 'artifact-path',
        message: new RegExp(`artifact ${String(id)}`, 'i'),
      },
    );
    expect(error.details.file).toBe(bad);
    expect(server.downloadsOf(id)).toEqual([]);
  });

  for (const mode of MODES) {
    it.each(BAD_PATHS)(`refuses %s among several files (${mode})`, async (_n, bad) => {
      const ground = playground();
      const id = artifact([
        { path: 'ok.txt', content: 'ok' },
        { path: bad, content: 'evil' },
      ]);
      await expectRefused(ground, () => server.download(id, ground.dest, mode), {
        rule: 'artifact-path',
      });
      expect(server.downloadsOf(id)).toEqual([]);
    });
  }

  it('refuses one file asked for by a path outside the artifact', async () => {
    const ground = playground();
    const id = artifact([{ path: '../../x', content: 'evil' }]);
    await expectRefused(
      ground,
      () => downloadArtifactFile(server.fake.transport(), id, '../../x', join(ground.dest, 'x')),
      { rule: 'artifact-path' },
    );
    expect(server.downloadsOf(id)).toEqual([]);
  });

  it('refuses a file that is also a folder of another file', async () => {
    const ground = playground();
    const id = artifact([
      { path: 'a', content: 'file' },
      { path: 'a/b', content: 'inside' },
    ]);
    await expectRefused(ground, () => downloadArtifact(server.fake.transport(), id, ground.dest), {
      rule: 'artifact-path',
      message: /"a".*folder/,
    });
  });

  it('refuses URLs that are not http(s)', async () => {
    const ground = playground();
    const id = server.nextId();
    server.fake.artifact(id, [{ path: 'a.txt', content: 'a' }], { tarball: tarGz([]) });
    const json = (await (
      await fetch(`${server.fake.apiUrl}/1.0/artifact/${String(id)}/`)
    ).json()) as {
      files: Record<string, { url: string }>;
    };
    const file = json.files['a.txt'];
    if (!file) throw new Error('no file');
    const hostile = { ...json, files: { 'a.txt': { ...file, url: 'file:///etc/passwd' } } };
    const { artifactResponseSchema } = await import('../../src/shared/models');
    await expectRefused(
      ground,
      () =>
        downloadArtifactFile(
          server.fake.transport(),
          artifactResponseSchema.parse(hostile),
          'a.txt',
          join(ground.dest, 'a.txt'),
        ),
      { rule: 'artifact-url' },
    );
  });
});

const BAD_MEMBERS: [string, string][] = [
  ['"../evil"', '../evil'],
  ['"a/../../evil"', 'a/../../evil'],
  ['an absolute name', '/tmp/ddt-hostile-member'],
  ['a NUL byte', 'a.txt\0.evil'],
  ['backslashes', '..\\..\\evil'],
  ['a drive letter', 'C:\\evil'],
  ['a leading "./"', './a.txt'],
  ['a name over 1024 bytes', `${'d/'.repeat(600)}a.txt`],
];

/** Archives whose members do not match the files the artifact declares, and the refusal. */
const MISMATCHES: [string, FakeFile[], TarEntry[], Refusal][] = [
  [
    'a member the artifact does not declare',
    [{ path: 'a.txt', content: 'a' }],
    [
      { name: 'a.txt', body: 'a' },
      { name: 'extra.txt', body: 'x' },
    ],
    { rule: 'archive-undeclared', message: /extra\.txt/ },
  ],
  [
    'a member inside a declared file',
    [{ path: 'a.txt', content: 'a' }],
    [{ name: 'a.txt/x', body: 'a' }],
    { rule: 'archive-undeclared' },
  ],
  [
    'a member that appears twice',
    [{ path: 'a.txt', content: 'a' }],
    [
      { name: 'a.txt', body: 'a' },
      { name: 'a.txt', body: 'a' },
    ],
    { rule: 'archive-duplicate', message: /a\.txt/ },
  ],
  [
    'a folder where a file is declared',
    [
      { path: 'a.txt', content: '' },
      { path: 'b.txt', content: 'b' },
    ],
    [
      { name: 'a.txt/', type: '5' },
      { name: 'b.txt', body: 'b' },
    ],
    { rule: 'archive-entry-type', message: /a\.txt/ },
  ],
  [
    'an archive that lacks a declared file',
    [
      { path: 'a.txt', content: 'a' },
      { path: 'b.txt', content: 'b' },
    ],
    [{ name: 'a.txt', body: 'a' }],
    { rule: 'archive-missing', message: /b\.txt/ },
  ],
];

describe('an archive whose members are not the artifact', () => {
  for (const mode of ['archive', 'tarball'] as const) {
    it.each(BAD_MEMBERS)(`refuses a member with %s after a good one (${mode})`, async (_n, bad) => {
      const ground = playground();
      const id = artifact(
        [{ path: 'a.txt', content: 'a' }],
        [
          { name: 'a.txt', body: 'a' },
          { name: bad, body: 'evil' },
        ],
      );
      await expectRefused(ground, () => server.download(id, ground.dest, mode), {
        code: 'bad-response',
        rule: 'archive-path',
        message: new RegExp(`archive of artifact ${String(id)}`),
      });
    });

    it.each(MISMATCHES)(`refuses %s (${mode})`, async (_name, files, members, refusal) => {
      const ground = playground();
      const id = artifact(files, members);
      await expectRefused(ground, () => server.download(id, ground.dest, mode), refusal);
    });

    it(`refuses a device and a FIFO (${mode})`, async () => {
      for (const type of ['3', '6'] as const) {
        const ground = playground();
        const id = artifact([{ path: 'a.txt', content: '' }], [{ name: 'a.txt', type }]);
        await expectRefused(ground, () => server.download(id, ground.dest, mode), {
          rule: 'archive-entry-type',
        });
      }
    });
  }

  it('accepts folders implied by the declared paths', async () => {
    const ground = playground();
    const id = artifact(
      [{ path: 'd/e/a.txt', content: 'a' }],
      [
        { name: 'd/', type: '5' },
        { name: 'd/e/', type: '5' },
        { name: 'd/e/a.txt', body: 'a' },
      ],
    );
    await downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'archive' });
    expect(readFileSync(join(ground.dest, 'd/e/a.txt'), 'utf8')).toBe('a');
  });
});

describe('very long names within the limits', () => {
  const long = `${'d'.repeat(200)}/${'n'.repeat(250)}.txt`;
  it.each(['files', 'archive'] as const)('are downloaded (%s)', async (via) => {
    const ground = playground();
    const id = artifact([
      { path: long, content: 'long' },
      { path: 'b.txt', content: 'b' },
    ]);
    await downloadArtifact(server.fake.transport(), id, ground.dest, { via });
    expect(readFileSync(join(ground.dest, long), 'utf8')).toBe('long');
  });
});

describe('names in messages', () => {
  it('shows a right-to-left override in a refused name as its mark', async () => {
    const ground = playground();
    const id = artifact([{ path: 'a\u202Etxt.exe/../../x', content: 'evil' }]);
    const error = await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest),
      { rule: 'artifact-path' },
    );
    expect(error.message).toContain('"a<U+202E>txt.exe/../../x"');
    expect(error.message).not.toContain('\u202E');
  });
});
