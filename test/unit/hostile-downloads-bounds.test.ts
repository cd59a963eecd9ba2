/**
 * Sizes, hashes and broken connections: a download stops the moment a file grows past its
 * declared size (measured on disk, and seen by the server as a connection closed early),
 * refuses a file whose hash differs or is missing, and names the artifact, the file and
 * the byte counts when the connection breaks. None of it leaves anything behind.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { downloadArtifact, downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { cutAfter, endless, sha256, stallAfter, whole } from '../support/fake-debusine';
import { expectRefused, hostileServer, playground } from '../support/hostile-downloads';
import { tarBytes, tarGz } from '../support/tar-build';
import { watchDiskUse } from '../support/tree-snapshot';

const server = hostileServer();
const artifact = server.artifact;

/** A gzip'd stream: `head`, then `zeros` bytes of zeros (which compress a thousandfold). */
async function gzipWithZeros(head: Buffer, zeros: number): Promise<Buffer> {
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write(head);
  const block = Buffer.alloc(2 ** 20);
  for (let left = zeros; left > 0; left -= block.length) {
    if (!gzip.write(block)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** Disk use allowed beyond the declared total: nothing is written past a declared size. */
const MARGIN = 64 * 1024;

describe('files larger than declared', () => {
  it('stops reading one file at its declared size (files, no Content-Length)', async () => {
    const ground = playground();
    const id = artifact([{ path: 'small.bin', content: 'ten bytes!', serve: endless() }]);
    const disk = watchDiskUse(ground.root);
    await expectRefused(ground, () => downloadArtifact(server.fake.transport(), id, ground.dest), {
      code: 'bad-response',
      rule: 'download-size',
      message: new RegExp(`small\\.bin of artifact ${String(id)}.*more than the 10 bytes`),
    });
    const most = disk.stop();
    expect(most).toBeLessThanOrEqual(10 + MARGIN);
    const [response] = server.downloadsOf(id);
    expect(response?.closedEarly).toBe(true);
    expect(response?.bytes).toBeLessThan(64 * 2 ** 20);
  });

  it('refuses a Content-Length over the declared size before reading the body', async () => {
    const ground = playground();
    const big = Buffer.alloc(8 * 2 ** 20, 1);
    const id = artifact([{ path: 'a.bin', content: 'ten bytes!', serve: whole(big) }]);
    const disk = watchDiskUse(ground.root);
    await expectRefused(
      ground,
      () => downloadArtifactFile(server.fake.transport(), id, 'a.bin', join(ground.dest, 'a.bin')),
      { rule: 'download-size', message: /a\.bin of artifact .*8388608 bytes.*10/ },
    );
    expect(disk.stop()).toBeLessThanOrEqual(10);
  });

  it('refuses an archive member larger than declared at its header (archive)', async () => {
    const ground = playground();
    const id = artifact(
      [{ path: 'a.bin', content: 'ten bytes!' }],
      [{ name: 'a.bin', body: Buffer.alloc(16 * 2 ** 20) }],
    );
    const disk = watchDiskUse(ground.root);
    await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'archive' }),
      { rule: 'download-size', message: /a\.bin.*16777216.*10 bytes/ },
    );
    expect(disk.stop()).toBeLessThanOrEqual(10 + MARGIN);
  });

  it('stops an archive that goes on after its last member (archive)', async () => {
    const ground = playground();
    const head = tarBytes([{ name: 'a.txt', body: 'a' }]);
    const id = artifact([{ path: 'a.txt', content: 'a' }], await gzipWithZeros(head, 64 * 2 ** 20));
    const started = Date.now();
    await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'archive' }),
      { rule: 'download-size', message: /archive of artifact/ },
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops saving a tarball far larger than the artifact (tarball)', async () => {
    const ground = playground();
    const id = artifact([{ path: 'a.txt', content: 'a' }], endless(64 * 2 ** 20, tarGz([])));
    const disk = watchDiskUse(ground.root);
    await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest, { tarball: true }),
      { rule: 'download-size', message: new RegExp(`artifact-${String(id)}\\.tar\\.gz`) },
    );
    expect(disk.stop()).toBeLessThan(2 * 2 ** 20);
    const [response] = server.downloadsOf(id, 'download/?archive');
    expect(response?.closedEarly).toBe(true);
  });
});

describe('hashes', () => {
  it.each(['files', 'archive', 'tarball'] as const)(
    'refuses a file of the right size with another hash, after a good one (%s)',
    async (mode) => {
      const ground = playground();
      const id = artifact(
        [
          { path: 'a.txt', content: 'a' },
          { path: 'b.txt', content: 'bbb', serve: whole('BBB') },
        ],
        [
          { name: 'a.txt', body: 'a' },
          { name: 'b.txt', body: 'BBB' },
        ],
      );
      await expectRefused(ground, () => server.download(id, ground.dest, mode), {
        rule: 'download-verify',
        message: /b\.txt of artifact .*hash mismatch/,
      });
    },
  );

  const noHash: [string, Record<string, string>][] = [
    ['no checksums', {}],
    ['only an MD5', { md5: '0cc175b9c0f1b6a831c399e269772661' }],
    ['a SHA-256 that is not one', { sha256: 'not-hex' }],
  ];
  it.each(noHash)('refuses a file with %s before downloading anything', async (_n, checksums) => {
    for (const revision of ['0.16', '0.11'] as const) {
      const ground = playground();
      const id = server.nextId();
      server.fake.artifact(
        id,
        [
          { path: 'a.txt', content: 'a' },
          { path: 'b.txt', content: 'b', checksums },
        ],
        { tarball: tarGz([]), revision },
      );
      await expectRefused(
        ground,
        () => downloadArtifact(server.fake.transport(), id, ground.dest),
        {
          code: 'bad-response',
          rule: 'download-unverifiable',
          message: new RegExp(`b\\.txt of artifact ${String(id)}.*SHA-256`),
        },
      );
      expect(server.downloadsOf(id)).toEqual([]);
    }
  });
});

describe('a connection that breaks', () => {
  const body = Buffer.alloc(100_000, 7);
  const cuts: [string, number][] = [
    ['after the headers', 0],
    ['mid-body', 50_000],
    ['just before the end', 99_999],
  ];

  it.each(cuts)('names the file, the artifact and the bytes (files, %s)', async (_n, at) => {
    const ground = playground();
    const id = artifact([
      { path: 'a.txt', content: 'a' },
      { path: 'big.bin', content: body, serve: cutAfter(body, at) },
    ]);
    await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'files' }),
      {
        code: 'network',
        message: new RegExp(
          `connection broke while downloading big\\.bin of artifact ${String(id)} after ${String(at)} of 100000 bytes`,
        ),
      },
    );
  });

  it.each(cuts)('names the file, the artifact and the bytes (one file, %s)', async (_n, at) => {
    const ground = playground();
    const id = artifact([{ path: 'big.bin', content: body, serve: cutAfter(body, at, false) }]);
    await expectRefused(
      ground,
      () =>
        downloadArtifactFile(server.fake.transport(), id, 'big.bin', join(ground.dest, 'big.bin')),
      {
        code: 'network',
        message: new RegExp(
          `connection broke while downloading big\\.bin of artifact ${String(id)} after ${String(at)} of 100000 bytes`,
        ),
      },
    );
  });

  it.each([0, 0.5, 0.97])('names what was being unpacked (archive, cut at %s)', async (where) => {
    const ground = playground();
    const random = (n: number) =>
      Buffer.from(Array.from({ length: n }, () => Math.floor(Math.random() * 256)));
    const files = [
      { path: 'a.bin', content: random(30_000) },
      { path: 'b.bin', content: random(60_000) },
    ];
    const gz = tarGz(files.map((f) => ({ name: f.path, body: f.content })));
    const id = artifact(files, cutAfter(gz, Math.floor(gz.length * where), false));
    await expectRefused(
      ground,
      () => downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'archive' }),
      {
        code: 'network',
        message: new RegExp(
          `connection broke while downloading (a|b)\\.bin of artifact ${String(id)} after \\d+ of (30000|60000) bytes|connection broke while downloading the archive of artifact ${String(id)} after 0 of 90000 bytes`,
        ),
      },
    );
  });

  it('reports a body that ends early without an error as short', async () => {
    const ground = playground();
    const id = artifact([{ path: 'a.bin', content: 'ten bytes!', serve: whole('five!', false) }]);
    await expectRefused(
      ground,
      () => downloadArtifactFile(server.fake.transport(), id, 'a.bin', join(ground.dest, 'a.bin')),
      { rule: 'download-size', message: /a\.bin of artifact .* ended after 5 of 10 bytes/ },
    );
  });
});

describe('a destination that cannot be created', () => {
  it('is refused with the artifact and the folder named', async () => {
    const ground = playground();
    const id = artifact([{ path: 'a.txt', content: 'a' }]);
    const dest = join(ground.parent, 'sibling.txt', 'dest');
    await expectRefused(ground, () => downloadArtifact(server.fake.transport(), id, dest), {
      code: 'validation',
      rule: 'download-destination',
      message: new RegExp(`artifact ${String(id)} into .*sibling\\.txt/dest`),
    });
  });
});

describe('cancelling', () => {
  it.each(['files', 'archive'] as const)('leaves nothing behind (%s)', async (via) => {
    const ground = playground();
    const controller = new AbortController();
    const abort = () => {
      setTimeout(() => {
        controller.abort();
      }, 50);
    };
    const big = randomBytes(4 * 2 ** 20);
    const files = [
      { path: 'a.txt', content: 'a' },
      { path: 'big.bin', content: big, serve: stallAfter(big, 2 ** 20, abort) },
    ];
    const gz = tarGz(files.map((f) => ({ name: f.path, body: f.content })));
    const id = artifact(files, stallAfter(gz, gz.length >> 1, abort, false));
    await expectRefused(
      ground,
      () =>
        downloadArtifact(server.fake.transport(), id, ground.dest, {
          via,
          signal: controller.signal,
        }),
      { code: 'cancelled', message: new RegExp(`artifact ${String(id)}.*cancelled`) },
    );
    expect(server.fake.served.at(-1)?.closedEarly).toBe(true);
  });
});

describe('many small files', () => {
  it('downloads 10,000 tiny members, reasonably fast', async () => {
    const ground = playground();
    const files = Array.from({ length: 10_000 }, (_, i) => ({
      path: `d${String(i % 10)}/f${String(i)}.txt`,
      content: `file ${String(i)}\n`,
    }));
    const id = artifact(files);
    const started = Date.now();
    await downloadArtifact(server.fake.transport(), id, ground.dest, { via: 'archive' });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(readdirSync(join(ground.dest, 'd3')).length).toBe(1000);
    expect(readFileSync(join(ground.dest, 'd7/f9997.txt'), 'utf8')).toBe('file 9997\n');
    expect(readdirSync(ground.dest).sort()).toEqual([
      'd0',
      'd1',
      'd2',
      'd3',
      'd4',
      'd5',
      'd6',
      'd7',
      'd8',
      'd9',
    ]);
    expect(sha256(readFileSync(join(ground.dest, 'd0/f0.txt')))).toBe(sha256('file 0\n'));
  }, 60_000);
});
