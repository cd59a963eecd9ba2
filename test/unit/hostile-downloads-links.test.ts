/**
 * Links: an artifact is a set of files, so a link in its archive is refused whatever it
 * points at, and a link the destination already holds is never written or created through.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadArtifact, downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import type { FakeFile } from '../support/fake-debusine';
import {
  expectRefused,
  hostileServer,
  playground,
  type Playground,
  type Refusal,
} from '../support/hostile-downloads';
import type { TarEntry } from '../support/tar-build';

const server = hostileServer();
const artifact = server.artifact;

const LINKS: [string, FakeFile[], TarEntry[]][] = [
  [
    'a symbolic link to an absolute path',
    [{ path: 'l' }],
    [{ name: 'l', type: '2', link: '/etc/passwd' }],
  ],
  [
    'a symbolic link out of the destination',
    [{ path: 'l' }],
    [{ name: 'l', type: '2', link: '../outside' }],
  ],
  [
    'a relative symbolic link to a file of the artifact',
    [{ path: 'a.txt', content: 'a' }, { path: 'l' }],
    [
      { name: 'a.txt', body: 'a' },
      { name: 'l', type: '2', link: 'a.txt' },
    ],
  ],
  [
    'a chain of links that ends outside',
    [{ path: 'd/b' }, { path: 'c' }],
    [
      { name: 'd/b', type: '2', link: '..' },
      { name: 'c', type: '2', link: 'd/b/..' },
    ],
  ],
  [
    'a hard link to a file of the artifact',
    [
      { path: 'a.txt', content: 'a' },
      { path: 'h', content: 'a' },
    ],
    [
      { name: 'a.txt', body: 'a' },
      { name: 'h', type: '1', link: 'a.txt' },
    ],
  ],
  [
    'a hard link to /etc/passwd',
    [{ path: 'h', content: 'x' }],
    [{ name: 'h', type: '1', link: '/etc/passwd' }],
  ],
  [
    'a hard link out of the destination',
    [{ path: 'h', content: 'x' }],
    [{ name: 'h', type: '1', link: '../outside/keep.txt' }],
  ],
];

describe('links in the archive', () => {
  for (const mode of ['archive', 'tarball'] as const) {
    it.each(LINKS)(`refuses %s (${mode})`, async (_name, files, members) => {
      const ground = playground();
      const id = artifact(files, members);
      await expectRefused(ground, () => server.download(id, ground.dest, mode), {
        code: 'bad-response',
        rule: 'archive-link',
        message: /link/,
      });
    });
  }
});

/** A link the destination holds, what the artifact brings, and how the download is refused. */
const DESTINATION_LINKS: {
  name: string;
  prepare: (ground: Playground) => void;
  files: FakeFile[];
  refusal: Refusal;
  /** What must not exist afterwards, for a link whose target does not exist yet. */
  absent?: (ground: Playground) => string;
}[] = [
  {
    name: 'never creates folders through one',
    prepare: (ground) => {
      symlinkSync('../outside', join(ground.dest, 'out'));
    },
    files: [
      { path: 'a.txt', content: 'a' },
      { path: 'out/newdir/deeper/b.txt', content: 'b' },
    ],
    refusal: { code: 'conflict', rule: 'destination-link', message: /out/ },
    absent: (ground) => join(ground.outside, 'newdir'),
  },
  {
    name: 'never writes a file through one',
    prepare: (ground) => {
      symlinkSync('../outside/new.txt', join(ground.dest, 'a.txt'));
    },
    files: [
      { path: 'a.txt', content: 'a' },
      { path: 'b.txt', content: 'b' },
    ],
    refusal: { code: 'conflict', rule: 'destination-link' },
  },
  {
    name: 'refuses a link to a folder inside the destination too',
    prepare: (ground) => {
      mkdirSync(join(ground.dest, 'real'));
      symlinkSync('real', join(ground.dest, 'alias'));
    },
    files: [
      { path: 'x.txt', content: 'x' },
      { path: 'alias/b.txt', content: 'b' },
    ],
    refusal: { rule: 'destination-link' },
  },
];

describe('links already in the destination', () => {
  for (const via of ['files', 'archive'] as const) {
    it.each(DESTINATION_LINKS)(`$name (${via})`, async (link) => {
      const ground = playground();
      link.prepare(ground);
      const id = artifact(link.files);
      await expectRefused(ground, () => server.download(id, ground.dest, via), link.refusal);
      if (link.absent) expect(existsSync(link.absent(ground))).toBe(false);
    });
  }

  it('never writes one file through a link at its target', async () => {
    const ground = playground();
    symlinkSync('../outside/keep.txt', join(ground.dest, 'a.txt'));
    const id = artifact([{ path: 'a.txt', content: 'a' }]);
    await expectRefused(
      ground,
      () => downloadArtifactFile(server.fake.transport(), id, 'a.txt', join(ground.dest, 'a.txt')),
      { code: 'conflict' },
    );
    expect(readFileSync(join(ground.outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('merges into real folders the destination already has', async () => {
    const ground = playground();
    mkdirSync(join(ground.dest, 'sub'));
    const id = artifact([
      { path: 'sub/a.txt', content: 'a' },
      { path: 'b.txt', content: 'b' },
    ]);
    await downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'archive' });
    expect(readFileSync(join(ground.dest, 'sub/a.txt'), 'utf8')).toBe('a');
  });
});
