/**
 * One pass, several algorithms: the digests equal each algorithm's own, whether the MD5 is
 * hashed on the main thread (small files) or on the worker (large ones, which then use
 * three shared buffers), for sizes on and around the chunk boundaries; several files at
 * once; a cancelled pass ends cleanly and the next ones still work.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/main/artifacts/hashing/checksums';
import { DebusineError } from '../../src/shared/errors';

const MiB = 1024 * 1024;
const ALGORITHMS = ['sha256', 'sha1', 'md5'];
const dir = mkdtempSync(join(tmpdir(), 'ddt-hash-'));

function file(size: number): { path: string; expected: Record<string, string> } {
  const data = randomBytes(size);
  const path = join(dir, `f-${String(size)}-${randomBytes(4).toString('hex')}`);
  writeFileSync(path, data);
  const expected = Object.fromEntries(
    ALGORITHMS.map((a) => [a, createHash(a).update(data).digest('hex')]),
  );
  return { path, expected };
}

describe('hashing several algorithms in one pass', () => {
  it.each([0, 1, MiB - 1, MiB, 8 * MiB - 1, 8 * MiB, 8 * MiB + 1, 13 * MiB + 17])(
    'gives each algorithm’s digest of a file of %i bytes',
    async (size) => {
      const { path, expected } = file(size);
      await expect(hashFile(path, ALGORITHMS)).resolves.toEqual({ size, digests: expected });
    },
  );

  it('hashes several large files at once', async () => {
    const files = [file(9 * MiB), file(10 * MiB + 3), file(3 * MiB)];
    const results = await Promise.all(files.map((f) => hashFile(f.path, ALGORITHMS)));
    results.forEach((result, i) => {
      expect(result.digests).toEqual(files[i]?.expected);
    });
  });

  it('stops a cancelled pass with a cancelled error, and the next pass works', async () => {
    const big = file(24 * MiB);
    const controller = new AbortController();
    const pass = hashFile(big.path, ALGORITHMS, controller.signal);
    setTimeout(() => {
      controller.abort();
    }, 1);
    const outcome = await pass.catch((error: unknown) => error);
    // On a fast machine the pass may end first; either way nothing is left half done.
    if (outcome instanceof DebusineError) expect(outcome.code).toBe('cancelled');
    else expect(outcome).toEqual({ size: 24 * MiB, digests: big.expected });
    const again = file(9 * MiB);
    await expect(hashFile(again.path, ALGORITHMS)).resolves.toEqual({
      size: 9 * MiB,
      digests: again.expected,
    });
  });
});
