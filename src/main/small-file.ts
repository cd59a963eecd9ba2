/**
 * Reading a small file of the user's own (a dput-ng profile, a devscripts configuration)
 * that main looks for by name, so that whatever stands at that name is harmless: a FIFO
 * would block an ordinary open until some writer came, and a device or a FIFO never ends,
 * so only a regular file is read; and at most `max` bytes are, even if the file grows
 * between the size check and the read.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export type SmallFile =
  /** Missing, unreadable, or not a regular file: as if there were none. */
  | undefined
  | { text: string }
  /** Larger than `max`: its size, or `max + 1` when it grew while being read. */
  | { tooLarge: number };

export async function readSmallFile(file: string, max: number): Promise<SmallFile> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (info.size > max) return { tooLarge: info.size };
    const buffer = Buffer.alloc(info.size + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > info.size) return { tooLarge: max + 1 };
    return { text: buffer.subarray(0, bytesRead).toString('utf8') };
  } finally {
    await handle.close();
  }
}
