/**
 * The staging folder of one download: a hidden folder created inside the folder the files
 * will go to, so that it is on the same file system and placing a file is a link (or a
 * rename), never a copy. Everything the download writes goes here first; only verified
 * files leave it (place-files.ts), and it is removed whatever happens, together with the
 * destination folder itself when the download had to create it.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { localPath } from './artifact-paths';
import { placeAll, type Placement } from './place-files';
import type { Subject } from './download-errors';

const PREFIX = '.debusine-download-';

export class Staging {
  readonly root: string;
  readonly #home: string;
  /** The first folder created to make `home` exist, to remove when nothing is placed. */
  readonly #created: string | undefined;
  readonly #folders = new Set<string>();

  private constructor(root: string, home: string, created: string | undefined) {
    this.root = root;
    this.#home = home;
    this.#created = created;
  }

  /** A new staging folder in `home` (created if need be: a local path the user chose). */
  static async open(home: string): Promise<Staging> {
    const created = await mkdir(home, { recursive: true });
    try {
      return new Staging(await mkdtemp(join(home, PREFIX)), home, created);
    } catch (error) {
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
   * Moves the staged files (each at the staging folder + its segments) into `home`, all
   * or none (see place-files.ts).
   */
  async place(placements: Placement[], subjectOf: (p: Placement) => Subject): Promise<void> {
    await placeAll(this.root, this.#home, placements, subjectOf, basename(this.root));
  }

  /** Removes the staging folder after the files were placed. */
  async close(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }

  /** Removes the staging folder, and the destination too if this download created it. */
  async discard(): Promise<void> {
    await rm(this.#created ?? this.root, { recursive: true, force: true });
  }
}
