/**
 * Streaming checksums. Two reused 1 MiB buffers: the next read runs (in libuv's pool) while
 * the current chunk is hashed, and no buffer is allocated per chunk (a stream's fresh 1 MiB
 * buffers cost page faults and GC, which made hashing of a 1 GiB file 0.6× OpenSSL's
 * speed). Nothing holds more than two chunks of a file in memory. Each chunk feeds every
 * requested algorithm, so that checking a file against the md5, sha1 and sha256 a .changes
 * lists reads it once; callers ask only for the algorithms they will compare, because each
 * one costs CPU (md5 about 2.5 times sha256 on a CPU with SHA extensions).
 */
import { createHash } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { DebusineError } from '../../shared/errors';

const READ_SIZE = 1024 * 1024;

export interface FileDigest {
  size: number;
  sha256: string;
}

export interface FileDigests {
  size: number;
  /** Algorithm name (`sha256`, `sha1`, `md5`…) → lower-case hex digest. */
  digests: Record<string, string>;
}

export async function hashFile(
  path: string,
  algorithms: readonly string[] = ['sha256'],
  signal?: AbortSignal,
): Promise<FileDigests> {
  if (signal?.aborted) throw cancelled(path);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    return await hashHandle(handle, path, algorithms, signal);
  } finally {
    await handle.close();
  }
}

/** Hashes an open file from its first byte to its end, in one pass. */
export async function hashHandle(
  handle: FileHandle,
  path: string,
  algorithms: readonly string[],
  signal?: AbortSignal,
): Promise<FileDigests> {
  const hashes = algorithms.map((name) => createHash(name));
  let size = 0;
  let pending: Promise<{ bytesRead: number }> | undefined;
  try {
    let chunk = Buffer.allocUnsafe(READ_SIZE);
    let spare = Buffer.allocUnsafe(READ_SIZE);
    pending = handle.read(chunk, 0, READ_SIZE, 0);
    for (;;) {
      const { bytesRead } = await pending;
      pending = undefined;
      if (bytesRead === 0) break;
      if (signal?.aborted) throw cancelled(path);
      size += bytesRead;
      pending = handle.read(spare, 0, READ_SIZE, size);
      const data = chunk.subarray(0, bytesRead);
      for (const hash of hashes) hash.update(data);
      [chunk, spare] = [spare, chunk];
    }
  } catch (error) {
    throw fileError(path, error);
  } finally {
    // A read still in flight (after an error) must end before the handle closes.
    await pending?.catch(() => undefined);
  }
  const digests: Record<string, string> = {};
  algorithms.forEach((name, i) => {
    digests[name] = hashes[i]?.digest('hex') ?? '';
  });
  return { size, digests };
}

/** The same digests of bytes already in memory (a control file read for parsing). */
export function hashBuffer(data: Uint8Array, algorithms: readonly string[]): FileDigests {
  const digests: Record<string, string> = {};
  for (const name of algorithms) digests[name] = createHash(name).update(data).digest('hex');
  return { size: data.length, digests };
}

function cancelled(path: string): DebusineError {
  return new DebusineError('cancelled', `Reading ${path} was cancelled`, { file: path });
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
