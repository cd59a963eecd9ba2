/**
 * Streaming checksums. Two reused 1 MiB buffers: the next read runs (in libuv's pool) while
 * the current chunk is hashed, and no buffer is allocated per chunk (a stream's fresh 1 MiB
 * buffers cost page faults and GC, which made hashing of a 1 GiB file 0.6× OpenSSL's
 * speed). Nothing holds more than two chunks of a file in memory. Each chunk feeds every
 * requested algorithm, so that checking a file against the md5, sha1 and sha256 a .changes
 * lists reads it once; callers ask only for the algorithms they will compare, because each
 * one costs CPU (md5 about 2.4 times sha256 on a CPU with SHA extensions).
 */
import { createHash } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { DebusineError } from '../../../shared/errors';
import { OFFLOADED, sideHash, type SideHash } from './hash-worker';

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
  return withFile(path, (handle) => hashHandle(handle, path, algorithms, signal));
}

/** Opens a file to read, runs `work` on it and closes it; every error names the file. */
export async function withFile<T>(
  path: string,
  work: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    return await work(handle);
  } catch (error) {
    throw fileError(path, error);
  } finally {
    await handle.close();
  }
}

/** Below this, a second thread costs more (messages, a first start) than it saves. */
const SIDE_MIN_SIZE = 8 * READ_SIZE;

/**
 * Hashes an open file from its first byte to its end, in one pass. MD5 of a large file goes
 * to hash-worker.ts, which hashes the same buffers on a second thread; it then takes three
 * buffers, so that one is read while the two threads hash another and the worker may
 * finish the one before.
 */
export async function hashHandle(
  handle: FileHandle,
  path: string,
  algorithms: readonly string[],
  signal?: AbortSignal,
): Promise<FileDigests> {
  const offloaded = algorithms.filter((a) => OFFLOADED.includes(a));
  let side: SideHash | undefined;
  let pending: Promise<{ bytesRead: number }> | undefined;
  let size = 0;
  const digests: Record<string, string> = {};
  const local = algorithms.filter((a) => !offloaded.includes(a));
  const hashes = local.map((name) => createHash(name));
  try {
    if (offloaded.length > 0) {
      if ((await handle.stat()).size >= SIDE_MIN_SIZE) side = sideHash(offloaded, 3, READ_SIZE);
      else for (const name of offloaded) hashes.push(createHash(name));
    }
    const names = side ? local : [...local, ...offloaded];
    const buffers = side?.buffers ?? [Buffer.allocUnsafe(READ_SIZE), Buffer.allocUnsafe(READ_SIZE)];
    // When the worker is done with each buffer (always, without one).
    const released: Promise<void>[] = buffers.map(() => Promise.resolve());
    let slot = 0;
    pending = handle.read(buffers[0] ?? Buffer.alloc(0), 0, READ_SIZE, 0);
    for (;;) {
      const { bytesRead } = await pending;
      pending = undefined;
      if (bytesRead === 0) break;
      if (signal?.aborted) throw cancelled(path);
      size += bytesRead;
      const next = (slot + 1) % buffers.length;
      await released[next];
      pending = handle.read(buffers[next] ?? Buffer.alloc(0), 0, READ_SIZE, size);
      if (side) {
        const fed = side.feed(slot, bytesRead);
        // Awaited only when its buffer comes round again; a failure must not go unhandled.
        fed.catch(() => undefined);
        released[slot] = fed;
      }
      const data = (buffers[slot] ?? Buffer.alloc(0)).subarray(0, bytesRead);
      for (const hash of hashes) hash.update(data);
      slot = next;
    }
    if (side) Object.assign(digests, await side.finish());
    names.forEach((name, i) => {
      digests[name] = hashes[i]?.digest('hex') ?? '';
    });
  } catch (error) {
    side?.drop();
    throw fileError(path, error);
  } finally {
    // A read still in flight (after an error) must end before the handle closes.
    await pending?.catch(() => undefined);
  }
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
