/**
 * Small helpers for the JSON files under the app data directory: read with a default,
 * and write atomically (temporary file + rename) so a crash never leaves half a file.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DebusineError } from '../shared/errors';

/** Reads and parses a JSON file; `undefined` when it does not exist. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DebusineError('internal', `Cannot read ${path}: ${(error as Error).message}`, {
      file: path,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DebusineError('validation', `${path} is not valid JSON`, { file: path });
  }
}

/**
 * Writes `value` as JSON atomically. `mode` applies to the file from its creation, so a
 * secret file is never readable by others, not even for an instant.
 */
export async function writeJsonFile(path: string, value: unknown, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode, flag: 'wx' });
    // writeFile's mode is filtered by the umask; chmod makes it exact.
    await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new DebusineError('internal', `Cannot write ${path}: ${(error as Error).message}`, {
      file: path,
    });
  }
}

/** Serialises async read-modify-write cycles on one file within this process. */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(task, task);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}
