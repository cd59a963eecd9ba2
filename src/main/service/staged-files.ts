/**
 * Files main holds on the renderer's behalf. The renderer only ever sees opaque ids: the
 * paths come from places main trusts (its own dialogs, the preload's webUtils resolution of
 * a real drop, the web host's staging directory), and main resolves ids back to paths.
 */
import { randomUUID } from 'node:crypto';
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { Caller } from '../bridge/caller';
import type { StagedFile } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';

interface Entry {
  file: StagedFile;
  path: string;
  /** Staged copies (web host uploads) are deleted on release; dropped originals are not. */
  owned: boolean;
  /** The renderer that staged it, when one did (the web host's uploads have none). */
  holder: Caller | undefined;
}

/**
 * How deep a dropped folder is walked: its files, and those of its subfolders down to
 * three levels below it, as the browser host's page walks one (a build's folder holds an
 * upload's files; a whole tree under it is not what was meant).
 */
const DROP_DEPTH = 3;

/**
 * The most files one drop or one pick stages. Most are a handful of files; a folder of debs
 * is a few hundred.
 */
export const MAX_STAGED_AT_ONCE = 10_000;

/**
 * The files a drop of these paths means: a file is itself, a folder its regular files
 * (walked as the browser host walks one, in name order, not following symbolic links),
 * anything else is left to `add` to refuse with its name. At most `limit` files.
 */
export async function expandDropped(paths: readonly string[], limit: number): Promise<string[]> {
  const out: string[] = [];
  const push = (path: string): void => {
    if (out.length >= limit) {
      throw new DebusineError(
        'validation',
        `The drop holds more than ${String(limit)} files: drop the folder that holds the upload`,
        { rule: 'drop-size' },
      );
    }
    out.push(path);
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isFile()) push(path);
      else if (entry.isDirectory() && depth < DROP_DEPTH) await walk(path, depth + 1);
    }
  };
  for (const path of paths) {
    const info = isAbsolute(path) ? await lstat(path).catch(() => null) : null;
    if (info?.isDirectory()) await walk(path, 1);
    else push(path);
  }
  return out;
}

/** The key under which a renderer holds a staged file. */
export function stagedKey(id: string): string {
  return `staged:${id}`;
}

export class StagedFiles {
  private readonly files = new Map<string, Entry>();

  constructor(private readonly remove: (path: string) => Promise<void> = () => Promise.resolve()) {}

  /**
   * Registers an existing regular file; refuses anything else (directories, devices). With
   * a caller, that renderer holds it: it is released when the renderer goes.
   */
  async add(
    path: string,
    options: { name?: string; owned?: boolean; caller?: Caller } = {},
  ): Promise<StagedFile> {
    if (!isAbsolute(path)) {
      throw new DebusineError('validation', 'Only absolute paths can be staged', { rule: 'path' });
    }
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) {
      throw new DebusineError('validation', `Not a regular file: ${basename(path)}`, {
        file: basename(path),
        rule: 'regular-file',
      });
    }
    const file: StagedFile = {
      id: randomUUID(),
      name: options.name ?? basename(path),
      size: info.size,
    };
    this.files.set(file.id, {
      file,
      path,
      owned: options.owned ?? false,
      holder: options.caller,
    });
    options.caller?.hold(stagedKey(file.id), () => this.release([file.id]));
    return file;
  }

  /** The path behind an id main handed out; anything else is refused. */
  path(id: string): string {
    const entry = this.files.get(id);
    if (!entry) throw new DebusineError('not-found', `No staged file ${JSON.stringify(id)}`);
    return entry.path;
  }

  /** Whether main made this copy (and deletes it on release), rather than the user's file. */
  isOwned(id: string): boolean {
    return this.files.get(id)?.owned ?? false;
  }

  get(id: string): StagedFile | undefined {
    return this.files.get(id)?.file;
  }

  /**
   * This renderer uses these files: those no renderer holds yet (the web host's uploads,
   * which arrive over HTTP, not over the page's connection) become its own.
   */
  claim(caller: Caller, ids: readonly string[]): void {
    for (const id of ids) {
      const entry = this.files.get(id);
      if (!entry || entry.holder !== undefined) continue;
      entry.holder = caller;
      caller.hold(stagedKey(id), () => this.release([id]));
    }
  }

  /**
   * Releases what this renderer may: the files it staged, and those no renderer holds; a
   * file another renderer staged stays its own.
   */
  async releaseFor(caller: Caller, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const holder = this.files.get(id)?.holder;
      if (holder === caller) await caller.release(stagedKey(id));
      else if (holder === undefined) await this.release([id]);
    }
  }

  async release(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const entry = this.files.get(id);
      if (!entry) continue;
      this.files.delete(id);
      if (entry.owned) await this.remove(entry.path);
    }
  }
}
