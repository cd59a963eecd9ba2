/**
 * The journal of downloads under way: each staging folder (staging.ts) with the random
 * token of its marker, kept in the app's data folder, so that the folders of downloads the
 * app could not finish (it crashed, the machine went down) are found and removed at the
 * next start. The journal is the only thing that names them: nothing is ever removed by
 * searching the user's folders, and nothing is removed unless it is a real folder with the
 * staging name whose marker holds the token recorded for it.
 */
import { lstat, readFile, rm } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { readJsonFile, SerialQueue, writeJsonFile } from '../../json-file';
import { markerText, STAGING_MARKER, STAGING_PREFIX, type StagingRecorder } from './staging';

interface Entry {
  folder: string;
  token: string;
}

/** A marker is one short line; anything larger is not one of ours. */
const MARKER_MAX = 256;

function entriesOf(value: unknown): Entry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (e): e is Entry =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as Entry).folder === 'string' &&
      typeof (e as Entry).token === 'string',
  );
}

/** Whether `folder` is, still, the staging folder the journal recorded with `token`. */
async function isOurs({ folder, token }: Entry): Promise<boolean> {
  if (!isAbsolute(folder) || !basename(folder).startsWith(STAGING_PREFIX)) return false;
  const found = await lstat(folder).catch(() => undefined);
  if (!found?.isDirectory()) return false;
  const marker = join(folder, STAGING_MARKER);
  const file = await lstat(marker).catch(() => undefined);
  if (!file?.isFile() || file.size > MARKER_MAX) return false;
  const text = await readFile(marker, 'utf8').catch(() => undefined);
  return text === markerText(token);
}

export class StagingJournal implements StagingRecorder {
  readonly #file: string;
  readonly #queue = new SerialQueue();

  constructor(file: string) {
    this.#file = file;
  }

  record(folder: string, token: string): Promise<void> {
    return this.#change((entries) => [...entries, { folder, token }]);
  }

  forget(folder: string): Promise<void> {
    return this.#change((entries) => entries.filter((e) => e.folder !== folder));
  }

  /**
   * Removes the staging folders that downloads of an earlier run left, and empties the
   * journal; the folders removed. Call it before any download of this run starts.
   */
  sweep(): Promise<string[]> {
    return this.#queue.run(async () => {
      const removed: string[] = [];
      for (const entry of entriesOf(await readJsonFile(this.#file).catch(() => undefined))) {
        if (!(await isOurs(entry))) continue;
        await rm(entry.folder, { recursive: true, force: true });
        removed.push(entry.folder);
      }
      await writeJsonFile(this.#file, [], 0o600);
      return removed;
    });
  }

  #change(edit: (entries: Entry[]) => Entry[]): Promise<void> {
    return this.#queue.run(async () => {
      const entries = entriesOf(await readJsonFile(this.#file).catch(() => undefined));
      await writeJsonFile(this.#file, edit(entries), 0o600);
    });
  }
}
