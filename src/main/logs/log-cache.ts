/**
 * The logs the viewer downloaded, kept in the app's cache folder so that opening one again
 * costs no request: one file per server, artifact and path (`<key>.log`, the key a SHA-256
 * of the three, so no name from the server becomes a path), and beside it `<key>.json`
 * with what it is and the size and SHA-256 it was verified against.
 *
 * Files arrive through the verified download (staged in a hidden folder here, placed only
 * once the declared size and SHA-256 match), and the record is written after the file is
 * placed, so a file without its record is an interrupted download: it is removed the next
 * time the cache is read, with any staging folder or temporary file left by a crash.
 *
 * The total is capped: the least recently used files go first, never one that is open.
 * On reuse the size is checked again (a file of the app's own folder changed size: it is
 * dropped and downloaded again); the SHA-256 is not computed again, since nothing but the
 * app writes here.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

export const DEFAULT_CACHE_CAP = 2 * 2 ** 30;

export interface LogRecord {
  apiUrl: string;
  artifactId: number;
  path: string;
  size: number;
  sha256: string;
}

interface Entry {
  record: LogRecord;
  /** Last opened, in ms since the epoch (the record's mtime on disk). */
  used: number;
}

function isRecord(value: unknown): value is LogRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.apiUrl === 'string' &&
    typeof v.artifactId === 'number' &&
    typeof v.path === 'string' &&
    typeof v.size === 'number' &&
    Number.isSafeInteger(v.size) &&
    v.size >= 0 &&
    typeof v.sha256 === 'string'
  );
}

export class LogCache {
  readonly dir: string;
  readonly cap: number;
  readonly #entries = new Map<string, Entry>();
  readonly #queue = new SerialQueue();
  #loaded: Promise<void> | undefined;

  constructor(dir: string, cap = DEFAULT_CACHE_CAP) {
    this.dir = dir;
    this.cap = cap;
  }

  keyOf(apiUrl: string, artifactId: number, path: string): string {
    return createHash('sha256')
      .update(JSON.stringify([apiUrl, artifactId, path]))
      .digest('hex');
  }

  /** Where the file of `key` is (or will be placed by its download). */
  fileOf(key: string): string {
    return join(this.dir, `${key}.log`);
  }

  /** Bytes held by the cached files. */
  get total(): number {
    let total = 0;
    for (const entry of this.#entries.values()) total += entry.record.size;
    return total;
  }

  /** The cached copy, checked and marked as just used; undefined when there is none. */
  find(key: string): Promise<LogRecord | undefined> {
    return this.#queue.run(async () => {
      await this.#load();
      const entry = this.#entries.get(key);
      if (!entry) return undefined;
      const found = await lstat(this.fileOf(key)).catch(() => undefined);
      if (!found?.isFile() || found.size !== entry.record.size) {
        await this.#drop(key);
        return undefined;
      }
      entry.used = Date.now();
      const now = new Date(entry.used);
      await utimes(this.#recordOf(key), now, now).catch(() => undefined);
      return entry.record;
    });
  }

  /** Drops least recently used files, except those in `keep`, until `incoming` more fit. */
  makeRoom(incoming: number, keep: ReadonlySet<string>): Promise<void> {
    return this.#queue.run(async () => {
      await this.#load();
      const byAge = [...this.#entries].sort(([, a], [, b]) => a.used - b.used);
      let total = this.total;
      for (const [key, entry] of byAge) {
        if (total + incoming <= this.cap) break;
        if (keep.has(key)) continue;
        await this.#drop(key);
        total -= entry.record.size;
      }
    });
  }

  /** Forgets `key` and removes whatever of it is on disk (before downloading it again). */
  discard(key: string): Promise<void> {
    return this.#queue.run(async () => {
      await this.#load();
      await this.#drop(key);
    });
  }

  /** Records a file its download just placed at `fileOf(key)`, verified. */
  add(key: string, record: LogRecord): Promise<void> {
    return this.#queue.run(async () => {
      await this.#load();
      await writeJsonFile(this.#recordOf(key), record, 0o600);
      this.#entries.set(key, { record, used: Date.now() });
    });
  }

  #recordOf(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  async #drop(key: string): Promise<void> {
    this.#entries.delete(key);
    // The record first: a file left without one is cleared at the next load.
    await rm(this.#recordOf(key), { force: true });
    await rm(this.fileOf(key), { force: true });
  }

  #load(): Promise<void> {
    this.#loaded ??= this.#scan();
    return this.#loaded;
  }

  /** Reads the records, and removes whatever has none (see the top of the file). */
  async #scan(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const names = new Set(await readdir(this.dir));
    const kept = new Set<string>();
    for (const name of names) {
      const key = /^([0-9a-f]{64})\.json$/.exec(name)?.[1];
      if (key === undefined || !names.has(`${key}.log`)) continue;
      const record = await readJsonFile(join(this.dir, name)).catch(() => undefined);
      const file = await lstat(this.fileOf(key)).catch(() => undefined);
      if (
        !isRecord(record) ||
        this.keyOf(record.apiUrl, record.artifactId, record.path) !== key ||
        !file?.isFile() ||
        file.size !== record.size
      ) {
        continue;
      }
      const used = (await stat(join(this.dir, name))).mtimeMs;
      this.#entries.set(key, { record, used });
      kept.add(name).add(`${key}.log`);
    }
    for (const name of names) {
      if (!kept.has(name)) await rm(join(this.dir, name), { recursive: true, force: true });
    }
  }
}
