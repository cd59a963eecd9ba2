/**
 * Files main holds on the renderer's behalf. The renderer only ever sees opaque ids: the
 * paths come from places main trusts (its own dialogs, the preload's webUtils resolution of
 * a real drop, the web host's staging directory), and main resolves ids back to paths.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { DownloadDestination, StagedFile } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';

interface Entry {
  file: StagedFile;
  path: string;
  /** Staged copies (web host uploads) are deleted on release; dropped originals are not. */
  owned: boolean;
}

export class StagedFiles {
  private readonly files = new Map<string, Entry>();
  private readonly destinations = new Map<string, { path: string; kind: 'file' | 'directory' }>();

  constructor(private readonly remove: (path: string) => Promise<void> = () => Promise.resolve()) {}

  /** Registers an existing regular file; refuses anything else (directories, devices). */
  async add(path: string, options: { name?: string; owned?: boolean } = {}): Promise<StagedFile> {
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
    this.files.set(file.id, { file, path, owned: options.owned ?? false });
    return file;
  }

  /** The path behind an id main handed out; anything else is refused. */
  path(id: string): string {
    const entry = this.files.get(id);
    if (!entry) throw new DebusineError('not-found', `No staged file ${JSON.stringify(id)}`);
    return entry.path;
  }

  get(id: string): StagedFile | undefined {
    return this.files.get(id)?.file;
  }

  async release(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const entry = this.files.get(id);
      if (!entry) continue;
      this.files.delete(id);
      if (entry.owned) await this.remove(entry.path);
    }
  }

  addDestination(path: string, kind: 'file' | 'directory'): DownloadDestination {
    const destinationId = randomUUID();
    this.destinations.set(destinationId, { path, kind });
    return { destinationId, label: basename(path) };
  }

  destination(id: string): { path: string; kind: 'file' | 'directory' } {
    const entry = this.destinations.get(id);
    if (!entry)
      throw new DebusineError('not-found', `No download destination ${JSON.stringify(id)}`);
    return entry;
  }
}
