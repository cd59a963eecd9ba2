/**
 * The logs open in the viewer, behind opaque handles. Opening the same file twice shares
 * one download and one index; each handle is closed on its own, and the file when its
 * last handle is. The renderer never names a path on disk: it names an artifact and a
 * path inside it, and gets back a handle and windows of text.
 */
import { randomUUID } from 'node:crypto';
import { artifactPathProblem } from '../artifacts';
import { DebusineError, serializeError } from '../../shared/errors';
import type { LogSearchResult, LogState, LogWindow } from '../../shared/log-types';
import type { LogCache } from './log-cache';
import { LogFile, type LogSource } from './log-file';
import type { SearchAsk } from './log-search';

/** Lines one window may hold. */
export const MAX_WINDOW_LINES = 2000;
const MAX_HANDLES = 64;

export class LogStore {
  readonly #cache: LogCache;
  readonly #emit: (state: LogState) => void;
  readonly #handles = new Map<string, LogFile>();
  /** Who hears of each handle's progress: the renderer that opened it, no one else. */
  readonly #listeners = new Map<string, (state: LogState) => void>();
  /** Open files by cache key (a failed one leaves, so that opening it again retries). */
  readonly #files = new Map<string, LogFile>();
  /** Files being closed, by key: a new open of the same file waits for it. */
  readonly #closing = new Map<string, Promise<void>>();
  /** Who waits for a file to finish loading (ready or failed). */
  readonly #settling = new Map<LogFile, (() => void)[]>();

  constructor(options: { cache: LogCache; emit?: (state: LogState) => void }) {
    this.#cache = options.cache;
    this.#emit = options.emit ?? (() => undefined);
  }

  /**
   * Opens a file for a new handle; `onChange` hears of that handle's progress (without it,
   * the store's own `emit` does).
   */
  async open(
    source: LogSource,
    artifactId: number,
    path: string,
    onChange?: (state: LogState) => void,
  ): Promise<LogState> {
    const problem = artifactPathProblem(path);
    if (problem) {
      throw new DebusineError('validation', `${JSON.stringify(path)} ${problem}`, {
        field: 'path',
        rule: 'artifact-path',
      });
    }
    if (this.#handles.size >= MAX_HANDLES) {
      throw new DebusineError(
        'conflict',
        `${String(MAX_HANDLES)} logs are open already: close one before opening another`,
        { rule: 'log-handles' },
      );
    }
    const key = this.#cache.keyOf(source.apiUrl, artifactId, path);
    // Whatever closing it met (a disk error trimming the cache) is not this open's to report.
    await this.#closing.get(key)?.catch(() => undefined);
    let file = this.#files.get(key);
    if (!file) {
      const made = new LogFile({ key, artifactId, path }, this.#cache, (f) => {
        this.#changed(f);
      });
      this.#files.set(key, made);
      made.started = made
        .start(source, () => new Set(this.#files.keys()))
        .catch(async (error: unknown) => {
          if (this.#files.get(key) === made) this.#files.delete(key);
          await made.close();
          throw error;
        });
      file = made;
    }
    // Counted before waiting, so that a handle closed meanwhile does not close the file.
    file.refs++;
    try {
      await file.started;
    } catch (error) {
      file.refs--;
      throw error;
    }
    const handle = randomUUID();
    this.#handles.set(handle, file);
    if (onChange) this.#listeners.set(handle, onChange);
    return this.#state(handle, file);
  }

  state(handle: string): LogState {
    return this.#state(handle, this.#file(handle));
  }

  /** The handle's state once its file is complete and verified, or has failed. */
  async settled(handle: string): Promise<LogState> {
    const file = this.#file(handle);
    if (file.state === 'loading') {
      await new Promise<void>((resolve) => {
        this.#settling.set(file, [...(this.#settling.get(file) ?? []), resolve]);
      });
    }
    return this.#state(handle, file);
  }

  async lines(handle: string, from: number, count: number): Promise<LogWindow> {
    const file = this.#file(handle);
    // The count as it was before the read: taken after it, a log still arriving may have
    // grown meanwhile, and the page would take a window short of lines it never read for
    // all the lines there are, and never ask again.
    const known = file.index.lines;
    const done = file.state === 'ready';
    const lines = await file.lines(from, Math.min(count, MAX_WINDOW_LINES));
    return {
      handle,
      from,
      lines,
      totalLines: Math.max(known, from + lines.length),
      done,
    };
  }

  async search(handle: string, ...ask: SearchAsk): Promise<LogSearchResult> {
    const file = this.#file(handle);
    const reader = file.reader();
    const source = reader ? { file: reader, index: file.index } : null;
    return file.searches.find(source, ...ask);
  }

  /** Stops the handle's file from arriving (for every handle on it); its state after. */
  async cancel(handle: string): Promise<LogState> {
    const file = this.#file(handle);
    await file.cancel();
    return this.#state(handle, file);
  }

  async close(handle: string): Promise<void> {
    const file = this.#file(handle);
    this.#handles.delete(handle);
    this.#listeners.delete(handle);
    if (--file.refs > 0) return;
    if (this.#files.get(file.key) === file) this.#files.delete(file.key);
    for (const resolve of this.#settling.get(file) ?? []) resolve();
    this.#settling.delete(file);
    const closing = file
      .close()
      // Files kept open may have pushed the cache over its cap: back under it now.
      .then(() => this.#cache.makeRoom(0, new Set(this.#files.keys())))
      .finally(() => {
        if (this.#closing.get(file.key) === closing) this.#closing.delete(file.key);
      });
    this.#closing.set(file.key, closing);
    await closing;
  }

  /** How many handles are open (for tests and diagnostics). */
  get openHandles(): number {
    return this.#handles.size;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#handles.keys()].map((handle) => this.close(handle)));
  }

  #file(handle: string): LogFile {
    const file = this.#handles.get(handle);
    if (!file) {
      throw new DebusineError(
        'not-found',
        'This log is not open (it was closed, or the app restarted)',
        {
          rule: 'log-handle',
        },
      );
    }
    return file;
  }

  #changed(file: LogFile): void {
    if (file.state === 'failed' && this.#files.get(file.key) === file) this.#files.delete(file.key);
    if (file.state !== 'loading') {
      const waiting = this.#settling.get(file) ?? [];
      this.#settling.delete(file);
      for (const resolve of waiting) resolve();
    }
    for (const [handle, open] of this.#handles) {
      if (open === file) (this.#listeners.get(handle) ?? this.#emit)(this.#state(handle, file));
    }
  }

  #state(handle: string, file: LogFile): LogState {
    return {
      handle,
      artifactId: file.artifactId,
      path: file.path,
      size: file.size,
      bytes: file.index.bytes,
      lines: file.index.lines,
      state: file.state,
      fromCache: file.fromCache,
      error: file.error ? serializeError(file.error) : null,
      analysis: file.analysis,
    };
  }
}
