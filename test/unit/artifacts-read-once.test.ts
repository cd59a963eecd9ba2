/**
 * Checking the files a .dsc lists costs no second read: detection hashes each listed file
 * once (sha256 with the md5 and sha1 the .dsc lists, in the same pass), and the upload's
 * create request reuses that pass. Files nothing lists are hashed with sha256 alone. A .deb's
 * structure is walked without reading its data member. Counted, not timed: every
 * FileHandle.read of node:fs/promises and every byte fed to each hash algorithm.
 */
import { execFileSync } from 'node:child_process';
import type * as Crypto from 'node:crypto';
import type * as FsPromises from 'node:fs/promises';
import type * as TimersPromises from 'node:timers/promises';
import type { TimerOptions } from 'node:timers';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { link, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkDebStructure } from '../../src/main/artifacts/formats/deb-archive';
import {
  digestFile,
  racyWindowNs,
  rememberDigests,
} from '../../src/main/artifacts/hashing/digest-cache';
import { createSourcePackageFromDsc } from '../../src/main/artifacts/local/kinds-debian';
import { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { useCountingServer } from '../support/counting-server';
import { missingDebianTools } from '../support/debian-fixtures';

const counts = vi.hoisted(() => ({
  /** Path → bytes read through FileHandle.read. */
  read: new Map<string, number>(),
  /** Algorithm → bytes hashed. */
  hashed: new Map<string, number>(),
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const open = async (...args: Parameters<typeof real.open>) => {
    const handle = await real.open(...args);
    const path = String(args[0]);
    const read = handle.read.bind(handle) as (
      ...a: unknown[]
    ) => Promise<{ bytesRead: number; buffer: Buffer }>;
    // FileHandle.read has several overloads; the counting wrapper passes them all through.
    (handle as unknown as { read: typeof read }).read = async (...a: unknown[]) => {
      const result = await read(...a);
      counts.read.set(path, (counts.read.get(path) ?? 0) + result.bytesRead);
      return result;
    };
    return handle;
  };
  return { ...real, open, default: { ...real, open } };
});

const timers = vi.hoisted(() => ({
  /** Milliseconds taken off the next timer of node:timers/promises (then back to 0). */
  shortenNextBy: 0,
}));

vi.mock('node:timers/promises', async (importOriginal) => {
  const real = await importOriginal<typeof TimersPromises>();
  const setTimeout = <T>(ms?: number, value?: T, options?: TimerOptions): Promise<T> => {
    const by = timers.shortenNextBy;
    timers.shortenNextBy = 0;
    return real.setTimeout(Math.max(0, (ms ?? 0) - by), value, options);
  };
  return { ...real, setTimeout, default: { ...real, setTimeout } };
});

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  const createHash = (algorithm: string) => {
    const hash = real.createHash(algorithm);
    const update = hash.update.bind(hash) as (data: Uint8Array) => typeof hash;
    (hash as unknown as { update: typeof update }).update = (data: Uint8Array) => {
      counts.hashed.set(algorithm, (counts.hashed.get(algorithm) ?? 0) + data.length);
      update(data);
      return hash;
    };
    return hash;
  };
  return { ...real, createHash, default: { ...real, createHash } };
});

const skip = missingDebianTools();
/** Longer than the window in which digest-cache.ts does not trust a file's times. */
const SETTLE_MS = 120;

const server = useCountingServer();
beforeEach(() => {
  counts.read.clear();
  counts.hashed.clear();
});

/** A 3.0 (quilt) source package as the upload-source benchmark makes one, smaller. */
function sourcePackage(dataSize = 3 * 1024 * 1024): { dsc: string; orig: string; debian: string } {
  const top = mkdtempSync(join(tmpdir(), 'ddt-once-'));
  const tree = join(top, 'once-1.0');
  mkdirSync(join(tree, 'debian', 'source'), { recursive: true });
  writeFileSync(join(tree, 'data.bin'), randomBytes(dataSize));
  execFileSync('tar', ['-czf', 'once_1.0.orig.tar.gz', 'once-1.0'], { cwd: top });
  writeFileSync(
    join(tree, 'debian', 'control'),
    'Source: once\nMaintainer: T <t@example.org>\n\nPackage: once\nArchitecture: all\nDescription: x\n x\n',
  );
  writeFileSync(
    join(tree, 'debian', 'changelog'),
    'once (1.0-1) unstable; urgency=medium\n\n  * x\n\n -- T <t@example.org>  Sat, 21 Nov 2026 12:00:00 +0000\n',
  );
  writeFileSync(join(tree, 'debian', 'source', 'format'), '3.0 (quilt)\n');
  execFileSync('dpkg-source', ['-b', 'once-1.0'], {
    cwd: top,
    stdio: 'ignore',
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  return {
    dsc: join(top, 'once_1.0-1.dsc'),
    orig: join(top, 'once_1.0.orig.tar.gz'),
    debian: join(top, 'once_1.0-1.debian.tar.xz'),
  };
}

const size = (path: string) => statSync(path).size;

describe.skipIf(skip)('each listed file is read once', () => {
  it('from detection of a .dsc to the create request', async () => {
    const pkg = sourcePackage();
    await sleep(SETTLE_MS);
    counts.read.clear();
    counts.hashed.clear();
    const artifact = await createSourcePackageFromDsc(pkg.dsc);
    await uploadArtifact(server().transport, artifact);
    expect(server().requests).toEqual(['POST /api/1.0/artifact/']);
    expect(counts.read.get(pkg.orig)).toBe(size(pkg.orig));
    expect(counts.read.get(pkg.debian)).toBe(size(pkg.debian));
    // md5 (Files) and sha1 (Checksums-Sha1) of the two tarballs, once each; the .dsc
    // itself is hashed from the text read to parse it (a few hundred bytes each time).
    const tarballs = size(pkg.orig) + size(pkg.debian);
    for (const algorithm of ['md5', 'sha1', 'sha256']) {
      const hashed = counts.hashed.get(algorithm) ?? 0;
      expect(hashed).toBeGreaterThanOrEqual(tarballs);
      expect(hashed - tarballs).toBeLessThan(8 * size(pkg.dsc));
    }
  });

  it('with the MD5 of a large file hashed on the worker, from the same buffers', async () => {
    const pkg = sourcePackage(10 * 1024 * 1024);
    await sleep(SETTLE_MS);
    counts.read.clear();
    counts.hashed.clear();
    // Accepted: the worker's MD5 is the one dpkg-source wrote in Files.
    const artifact = await createSourcePackageFromDsc(pkg.dsc);
    await uploadArtifact(server().transport, artifact);
    expect(counts.read.get(pkg.orig)).toBe(size(pkg.orig));
    expect(counts.hashed.get('sha256')).toBeGreaterThanOrEqual(size(pkg.orig));
    // Only the small files' MD5 was hashed on this thread.
    expect(counts.hashed.get('md5')).toBeLessThan(size(pkg.orig));
  });
});

describe('a remembered reading', () => {
  it('is used for the same version of a file, unless the file changed just before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-once-'));
    const path = join(dir, 'f.bin');
    writeFileSync(path, randomBytes(1000));
    const info = await stat(path, { bigint: true });
    const fake = { size: 1000, digests: { sha256: 'remembered' } };
    // Read 10 ms after its last change: within a clock tick or so, not trusted.
    rememberDigests(path, info, info, info.ctimeNs + 10_000_000n, fake);
    counts.read.clear();
    expect((await digestFile(path, ['sha256'])).digests.sha256).not.toBe('remembered');
    expect(counts.read.get(path)).toBe(1000);
    // Read 100 ms after: trusted while the version stays.
    rememberDigests(path, info, info, info.ctimeNs + 100_000_000n, fake);
    counts.read.clear();
    expect((await digestFile(path, ['sha256'])).digests.sha256).toBe('remembered');
    expect(counts.read.get(path) ?? 0).toBe(0);
    // Another algorithm than remembered: read again.
    expect(Object.keys((await digestFile(path, ['md5'])).digests).sort()).toEqual([
      'md5',
      'sha256',
    ]);
    expect(counts.read.get(path)).toBe(1000);
  });
});

/**
 * A settled file of 300,000 bytes, hard-linked just now: a new link sets the file's ctime to
 * now, as the draft's link directory does. The path of the link.
 */
async function justLinked(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ddt-once-'));
  const original = join(dir, 'pkg_1.0.orig.tar.gz');
  writeFileSync(original, randomBytes(300_000));
  await sleep(SETTLE_MS);
  const linked = join(dir, 'linked.tar.gz');
  await link(original, linked);
  return linked;
}

describe('a file changed just before it is read', () => {
  it('is waited for, not read twice: a draft hard-links the files it is given', async () => {
    const linked = await justLinked();
    counts.read.clear();
    const checked = await digestFile(linked, ['sha256', 'sha1', 'md5']);
    const declared = await digestFile(linked, ['sha256']);
    expect(declared.digests.sha256).toBe(checked.digests.sha256);
    expect(counts.read.get(linked)).toBe(300_000);
  });

  it('is waited for when it changed within the millisecond the clock reads', async () => {
    // The clock read counts whole milliseconds, and a link's ctime is exact when the file's
    // times were asked for since its last change (as the draft's detection does): a file
    // linked just now then seems up to a millisecond in the future.
    const dir = mkdtempSync(join(tmpdir(), 'ddt-once-'));
    const paths: string[] = [];
    for (let i = 0; i < 5; i++) {
      const original = join(dir, `f${String(i)}.bin`);
      writeFileSync(original, randomBytes(100_000));
      paths.push(original);
    }
    await sleep(SETTLE_MS);
    counts.read.clear();
    for (const [i, original] of paths.entries()) {
      statSync(original);
      const linked = join(dir, `linked-${String(i)}.bin`);
      linkSync(original, linked);
      await digestFile(linked, ['sha256', 'md5']);
      await digestFile(linked, ['sha256']);
      expect([linked, counts.read.get(linked)]).toEqual([linked, 100_000]);
    }
  });

  it('is waited for again when the wait ended early by the wall clock', async () => {
    const linked = await justLinked();
    // A timer counts from the event loop's cached time, behind the wall clock after a long
    // turn: the first wait ends 15 ms before the wall clock has gone as far.
    timers.shortenNextBy = 15;
    counts.read.clear();
    await digestFile(linked, ['sha256', 'sha1', 'md5']);
    await digestFile(linked, ['sha256']);
    expect(timers.shortenNextBy).toBe(0);
    expect(counts.read.get(linked)).toBe(300_000);
  });

  it('is trusted later on a file system that keeps whole seconds', () => {
    // ext3 and HFS+ keep whole seconds, FAT two: a change within them keeps the version.
    expect(racyWindowNs({ ctimeNs: 1_764_000_000_000_000_000n })).toBe(2_000_000_000n);
    expect(racyWindowNs({ ctimeNs: 1_764_000_000_123_456_789n })).toBe(20_000_000n);
  });

  it('is still read again when it changes after it was remembered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-once-'));
    const path = join(dir, 'f.bin');
    writeFileSync(path, randomBytes(1000));
    const first = await digestFile(path, ['sha256']);
    writeFileSync(path, randomBytes(1000));
    counts.read.clear();
    const second = await digestFile(path, ['sha256']);
    expect(second.digests.sha256).not.toBe(first.digests.sha256);
    expect(counts.read.get(path)).toBe(1000);
  });
});

describe('files nothing lists', () => {
  it('are hashed with sha256 alone, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-once-'));
    const artifact = new LocalArtifact('debusine:test');
    let total = 0;
    for (let i = 0; i < 5; i++) {
      const path = join(dir, `small-${String(i)}.bin`);
      writeFileSync(path, randomBytes(200_000));
      total += 200_000;
      await artifact.addLocalFile(path);
    }
    await artifact.createRequest({});
    expect(Object.fromEntries(counts.hashed)).toEqual({ sha256: total });
    expect([...counts.read.values()].reduce((a, b) => a + b, 0)).toBe(total);
  });
});

describe('the structure walk of a .deb', () => {
  it('reads headers, not the data member', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-once-'));
    const member = (name: string, body: Buffer) => [
      Buffer.from(`${name.padEnd(16)}${'0'.padEnd(32)}${String(body.length).padEnd(10)}\`\n`),
      body,
    ];
    const path = join(dir, 'big_1.0_all.deb');
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from('!<arch>\n'),
        ...member('debian-binary', Buffer.from('2.0\n')),
        ...member('control.tar.xz', Buffer.alloc(1000)),
        ...member('data.tar.xz', Buffer.alloc(8 * 1024 * 1024)),
      ]),
    );
    await checkDebStructure(path);
    expect(counts.read.get(path)).toBeLessThan(8 + 3 * 60 + 64);
  });
});
