/**
 * Digests of local files, remembered per version of each file, so that a file checked when
 * it is dropped (against the checksums its .changes or .dsc lists) is not read again when
 * the upload declares its size and SHA-256: each file is hashed once, in one pass.
 *
 * A version is (device, inode, size, mtime, ctime). Any write or attribute change sets ctime
 * to the current time, and no system call sets it to a chosen value (unlike mtime), so a
 * file with the same version has the same bytes — with one exception, which git calls
 * "racily clean": the kernel stamps times from a coarse clock (one tick is up to 10 ms), so
 * a file written again within the tick of its last change keeps its version. An entry is
 * therefore kept only when the file had not changed for two ticks (RACY_NS) before its
 * reading started. Some file systems keep whole seconds (ext3, HFS+) or two seconds (FAT,
 * whose ctime is its mtime): a ctime with no fraction of a second is taken to come from
 * one of those, and the window is then COARSE_NS.
 *
 * A file that changed that recently is waited for (about RACY_NS at most) before it is read to
 * be remembered, rather than read now and again later. It is the common case, not a rare
 * one: a draft hard-links the files it was given (drafts.ts), which sets each file's ctime
 * just before they are hashed, and without the wait the first file hashed was read a
 * second time when the upload asked for its SHA-256.
 */
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BigIntStats } from 'node:fs';
import { BoundedMap } from '../../bounded';
import { fileError, hashFile, hashHandle, withFile, type FileDigests } from './checksums';

const RACY_NS = 20_000_000n;
const MS_NS = 1_000_000n;
const COARSE_NS = 2_000_000_000n;

/** How long after its last change a file's version can still hide another change. */
export function racyWindowNs(info: Pick<BigIntStats, 'ctimeNs'>): bigint {
  return info.ctimeNs % 1_000_000_000n === 0n ? COARSE_NS : RACY_NS;
}
/** Bounded: a long session drops many files; old entries just mean one more read. */
const LIMIT = 1024;

interface Entry extends FileDigests {
  version: string;
}

const entries = new BoundedMap<string, Entry>(LIMIT);

function versionOf(info: BigIntStats): string {
  return [info.dev, info.ino, info.size, info.mtimeNs, info.ctimeNs].join(':');
}

/** When reading started, on the clock file times come from. */
export function readingStarts(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/**
 * Records digests of a file read from `before` to `after` (its stats on the open handle).
 * Nothing is kept when the file changed while it was read or shortly before.
 */
export function rememberDigests(
  path: string,
  before: BigIntStats,
  after: BigIntStats,
  started: bigint,
  result: FileDigests,
): void {
  // An older reading is stale whatever happens next; gone first, a new one counts as newest.
  entries.delete(path);
  const version = versionOf(before);
  if (version !== versionOf(after) || before.ctimeNs >= started - racyWindowNs(before)) return;
  if (BigInt(result.size) !== before.size) return;
  entries.set(path, { ...result, digests: { ...result.digests }, version });
}

/**
 * Size and digests of a file with at least `algorithms`: from a remembered reading of the
 * same version, or from one pass over the file, remembered when `remember` (a file read
 * only once, for the upload, costs no more than a plain pass: no stat before or after).
 */
export async function digestFile(
  path: string,
  algorithms: readonly string[],
  options: { signal?: AbortSignal | undefined; remember?: boolean } = {},
): Promise<FileDigests> {
  const { signal, remember = true } = options;
  const known = entries.get(path);
  let same: Entry | undefined;
  if (known) {
    let now: BigIntStats;
    try {
      now = await stat(path, { bigint: true });
    } catch (error) {
      throw fileError(path, error);
    }
    same = known.version === versionOf(now) ? known : undefined;
    if (same && algorithms.every((a) => Object.hasOwn(known.digests, a))) {
      return { size: known.size, digests: { ...known.digests } };
    }
  }
  if (!remember) return hashFile(path, algorithms, signal);
  // The same version asked with more algorithms: keep the ones known in the new entry.
  const wanted = [...new Set([...algorithms, ...Object.keys(same?.digests ?? {})])];
  return withFile(path, async (handle) => {
    let before = await handle.stat({ bigint: true });
    let settled = before.ctimeNs + racyWindowNs(before) - readingStarts();
    // Only short waits: a ctime in the future (another clock, a skewed NFS server) or on a
    // file system of whole seconds is not waited for; that reading is not remembered. The
    // clock read counts whole milliseconds, so a file changed within the current one seems
    // up to a millisecond in the future: the usual case for a file linked just now, which
    // is waited for.
    // A loop, not one sleep: a timer counts from the event loop's cached time, which is
    // behind the wall clock by however long the current turn has run, so on a busy machine
    // it can end before the file has settled by the wall clock that `started` reads. Only
    // while the file stays as it was: one still being written is read now, not remembered.
    const changed = before.ctimeNs;
    while (settled > 0n && settled <= RACY_NS + MS_NS && before.ctimeNs === changed) {
      // One millisecond more: the clock read above counts whole milliseconds.
      const ms = Number(settled) / 1e6 + 1;
      await sleep(ms, undefined, signal ? { signal } : {}).catch((error: unknown) => {
        throw fileError(path, error);
      });
      before = await handle.stat({ bigint: true });
      settled = before.ctimeNs + racyWindowNs(before) - readingStarts();
    }
    const started = readingStarts();
    const result = await hashHandle(handle, path, wanted, signal);
    rememberDigests(path, before, await handle.stat({ bigint: true }), started, result);
    return result;
  });
}
