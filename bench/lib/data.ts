import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FileDecl } from './server';

/**
 * Bench data lives inside the server's chroot (/var/tmp/debusine-bench there), so that the
 * app, curl and the Debusine CLI in the chroot read the very same files.
 */
export function dataDir(root: string): { host: string; chroot: string } {
  const host = join(root, 'var/tmp/debusine-bench');
  mkdirSync(host, { recursive: true });
  return { host, chroot: '/var/tmp/debusine-bench' };
}

export function cleanData(root: string): void {
  rmSync(join(root, 'var/tmp/debusine-bench'), { recursive: true, force: true });
}

/** Writes `size` random bytes (fast: repeated random blocks, unique per file by a header). */
export async function writeRandomFile(path: string, size: number): Promise<void> {
  const block = randomBytes(Math.max(1, Math.min(size, 4 * 2 ** 20)));
  const out = createWriteStream(path);
  let written = 0;
  while (written < size) {
    const chunk = block.subarray(0, Math.min(block.length, size - written));
    if (!out.write(chunk)) {
      await new Promise<void>((r) => {
        out.once('drain', () => {
          r();
        });
      });
    }
    written += chunk.length;
  }
  out.end();
  await finished(out);
  if (size >= 32) await makeUnique(path);
}

/** Rewrites the first 32 bytes, so that the server cannot deduplicate a re-upload. */
export async function makeUnique(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.write(randomBytes(32), 0, 32, 0);
  } finally {
    await handle.close();
  }
}

export async function declare(path: string): Promise<FileDecl> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 2 ** 20 })) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    hash.update(buffer);
  }
  return { size, sha256: hash.digest('hex') };
}
