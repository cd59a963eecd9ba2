/**
 * The staging folder of one download: a hidden folder created inside the folder the files
 * will go to, so that it is on the same file system and placing a file is a link (or a
 * rename), never a copy. Everything the download writes goes here first; only verified
 * files leave it (place-files.ts), and it is removed whatever happens, together with the
 * destination folder itself when the download had to create it.
 *
 * A download cut short by the app's end (a crash, a power cut, a quit) cannot remove its
 * folder. So each one is written in a journal (staging-journal.ts) before anything is
 * downloaded into it, and carries a marker file holding a random token that the journal
 * records too; at the next start the journal's folders are removed, each only if it still
 * has the staging name and its marker still holds that token, so that nothing the user
 * made, even a folder given the same name, is ever removed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { localPath } from '../formats/artifact-paths';
import { placeAll, type Placement } from './place-files';
import type { Subject } from './download-errors';

export const STAGING_PREFIX = '.debusine-download-';
/** The marker's name, beside the folder of staged files (so no artifact path can be it). */
export const STAGING_MARKER = 'debusine-desktop-download';
const FILES = 'files';

/** Where the staging folders of downloads under way are recorded (staging-journal.ts). */
export interface StagingRecorder {
  record(folder: string, token: string): Promise<void>;
  forget(folder: string): Promise<void>;
}

export function markerText(token: string): string {
  return `A download of Debusine Desktop, under way or cut short: ${token}\n`;
}

export class Staging {
  /** Where the download's files are written, by artifact path. */
  readonly root: string;
  /** The staging folder itself, holding the marker and `root`. */
  readonly #folder: string;
  readonly #home: string;
  /** The first folder created to make `home` exist, to remove when nothing is placed. */
  readonly #created: string | undefined;
  readonly #folders = new Set<string>();
  readonly #recorder: StagingRecorder | undefined;

  private constructor(
    folder: string,
    home: string,
    created: string | undefined,
    recorder: StagingRecorder | undefined,
  ) {
    this.#folder = folder;
    this.root = join(folder, FILES);
    this.#home = home;
    this.#created = created;
    this.#recorder = recorder;
  }

  /** A new staging folder in `home` (created if need be: a local path the user chose). */
  static async open(home: string, recorder?: StagingRecorder): Promise<Staging> {
    const created = await mkdir(home, { recursive: true });
    let folder: string | undefined;
    try {
      folder = await mkdtemp(join(home, STAGING_PREFIX));
      const token = randomBytes(16).toString('hex');
      await recorder?.record(folder, token);
      await writeFile(join(folder, STAGING_MARKER), markerText(token), { flag: 'wx' });
      await mkdir(join(folder, FILES));
      return new Staging(folder, home, created, recorder);
    } catch (error) {
      if (folder !== undefined) {
        await rm(folder, { recursive: true, force: true });
        await recorder?.forget(folder).catch(() => undefined);
      }
      if (created !== undefined) await rm(created, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Where an artifact path is written while staged, its folders created. The staging
   * folder is new and holds only what this download made (real folders and files, never
   * a link), so creating folders in it cannot lead anywhere else.
   */
  async prepare(path: string): Promise<string> {
    const full = localPath(this.root, path);
    const dir = dirname(full);
    if (dir !== this.root && !this.#folders.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.#folders.add(dir);
    }
    return full;
  }

  /**
   * Moves the staged files (each at `root` + its segments) into `home`, all or none (see
   * place-files.ts).
   */
  async place(placements: Placement[], subjectOf: (p: Placement) => Subject): Promise<void> {
    await placeAll(this.root, this.#home, placements, subjectOf, basename(this.#folder));
  }

  /** Removes the staging folder after the files were placed. */
  async close(): Promise<void> {
    await rm(this.#folder, { recursive: true, force: true });
    await this.#recorder?.forget(this.#folder);
  }

  /** Removes the staging folder, and the destination too if this download created it. */
  async discard(): Promise<void> {
    await rm(this.#created ?? this.#folder, { recursive: true, force: true });
    await this.#recorder?.forget(this.#folder);
  }
}
