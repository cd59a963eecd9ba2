/** SHA-256 of a big file, from the page cache: the app's streaming hash vs OpenSSL. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256File } from '../../src/main/artifacts';
import { opensslSha256 } from '../lib/baselines';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir, writeRandomFile } from '../lib/data';

export async function hash(ctx: BenchContext): Promise<void> {
  const size = ctx.sizes.hashFile;
  const scenario = `sha256 of ${String(size / 2 ** 20)} MiB`;
  const file = join(dataDir(ctx.server.root).host, 'hash.bin');
  try {
    await writeRandomFile(file, size);
    // Warm the page cache, so that both read from memory.
    await opensslSha256(file);
    await ctx.time(scenario, 'app', () => sha256File(file), { bytes: size, note: 'sha256File' });
    await ctx.time(scenario, 'openssl', () => opensslSha256(file), {
      bytes: size,
      note: 'openssl dgst -sha256',
    });
    // The hashing limit itself: Node's crypto over bytes already in memory.
    const inMemory = readFileSync(file).subarray(0, Math.min(size, 256 * 2 ** 20));
    const { createHash } = await import('node:crypto');
    await ctx.time(
      scenario,
      'node crypto, in memory',
      () => createHash('sha256').update(inMemory).digest('hex'),
      { bytes: inMemory.length, note: `${String(inMemory.length / 2 ** 20)} MiB buffer, no I/O` },
    );
    const ratio = ctx.median(scenario, 'openssl') / ctx.median(scenario, 'app');
    ctx.target(scenario, 'hashing: app speed / OpenSSL speed', ratio, { min: 0.9, text: '≥ 0.90' });
  } finally {
    cleanData(ctx.server.root);
  }
}
