/**
 * Streaming checksums. Large reads (1 MiB) keep the per-chunk overhead low, so hashing runs
 * near OpenSSL's own speed; nothing holds more than one chunk of a file in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DebusineError } from '../../shared/errors';

const READ_SIZE = 1024 * 1024;

export interface FileDigest {
  size: number;
  sha256: string;
}

export async function hashFile(
  path: string,
  algorithms: readonly string[] = ['sha256'],
  signal?: AbortSignal,
): Promise<{ size: number; digests: Record<string, string> }> {
  const hashes = algorithms.map((name) => createHash(name));
  let size = 0;
  try {
    const stream = createReadStream(path, { highWaterMark: READ_SIZE, signal });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      for (const hash of hashes) hash.update(chunk);
    }
  } catch (error) {
    throw fileError(path, error);
  }
  const digests: Record<string, string> = {};
  algorithms.forEach((name, i) => {
    digests[name] = hashes[i]?.digest('hex') ?? '';
  });
  return { size, digests };
}

export async function sha256File(path: string, signal?: AbortSignal): Promise<FileDigest> {
  const { size, digests } = await hashFile(path, ['sha256'], signal);
  return { size, sha256: digests.sha256 ?? '' };
}

export async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    throw fileError(path, error);
  }
}

export function fileError(path: string, error: unknown): DebusineError {
  if (error instanceof DebusineError) return error;
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError') {
    return new DebusineError('cancelled', `Reading ${path} was cancelled`, { file: path });
  }
  const code = (error as { code?: unknown } | null)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : error instanceof Error
          ? error.message
          : String(error);
  return new DebusineError('validation', `Cannot read ${path}: ${reason}`, { file: path });
}
