/**
 * One log open for reading: it comes from the cache, or arrives through the verified
 * download, and is indexed (and, for an sbuild log, analysed) as its bytes reach the
 * disk, so that its first lines can be read while the rest is still on the way.
 *
 * The reader follows the file the download writes (in its staging folder) through one
 * file descriptor, reading only up to the end of what is on disk; once the download is
 * placed, that is the same file at its place in the cache. Until the download resolves,
 * what was read was not verified: if it is refused (size, SHA-256, broken connection), the
 * file fails, its descriptor is closed, and nothing read from it can be read again.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { declaredFile, downloadArtifactFile, getArtifact, type ClientLike } from '../artifacts';
import { DebusineError } from '../../shared/errors';
import type { LogLine, SbuildLogAnalysis } from '../../shared/log-types';
import type { LogCache } from './log-cache';
import { LineIndex } from './line-index';
import { readLines, readWindow } from './line-reader';
import { LogSearches } from './log-search';
import { isSbuildLog, SbuildLogAnalyzer } from './sbuild-log';

const READ_CHUNK = 2 ** 20;
const NOTIFY_MS = 100;

export interface LogSource {
  apiUrl: string;
  /** Called only when the file is not in the cache. */
  client: () => ClientLike;
}

export class LogFile {
  readonly key: string;
  readonly artifactId: number;
  readonly path: string;
  readonly index = new LineIndex();
  readonly searches = new LogSearches();
  size = 0;
  fromCache = false;
  state: 'loading' | 'ready' | 'failed' = 'loading';
  error: DebusineError | null = null;
  analysis: SbuildLogAnalysis | null = null;
  /** Handles open on this file (or waiting for it to start). */
  refs = 0;
  /** Settles as `start` does; set by whoever starts the file. */
  started: Promise<void> = Promise.resolve();
  readonly #cache: LogCache;
  readonly #onChange: (file: LogFile) => void;
  readonly #abort = new AbortController();
  #fd: FileHandle | undefined;
  #readPath: string | undefined;
  #settled: Promise<void> = Promise.resolve();
  #pumping: Promise<void> | undefined;
  /** Passes asked for: a pass that sees this change under it runs again. */
  #asked = 0;
  #pumpError: Error | null = null;
  /** undefined until the first line says whether this is an sbuild log. */
  #analyzer: SbuildLogAnalyzer | null | undefined;
  #analyzed = 0;
  #notified = 0;
  /** The notice held back by the throttle, sent when its interval is over. */
  #trailing: NodeJS.Timeout | undefined;
  /** The buffer the index reads through, while the file arrives. */
  #chunk: Buffer | undefined;

  constructor(
    where: { key: string; artifactId: number; path: string },
    cache: LogCache,
    onChange: (file: LogFile) => void,
  ) {
    this.key = where.key;
    this.artifactId = where.artifactId;
    this.path = where.path;
    this.#cache = cache;
    this.#onChange = onChange;
  }

  /**
   * Resolves once the cached copy was found or the download has begun; rejects when it
   * cannot begin (no such file, too large, not signed in, server unreachable).
   */
  async start(source: LogSource, keep: () => ReadonlySet<string>): Promise<void> {
    const cached = await this.#cache.find(this.key);
    if (cached) {
      this.size = cached.size;
      this.fromCache = true;
      this.#readPath = this.#cache.fileOf(this.key);
      this.#settled = this.#complete(Promise.resolve());
      return;
    }
    const client = source.client();
    const { signal } = this.#abort;
    const artifact = await getArtifact(client, this.artifactId, signal);
    const declared = declaredFile(artifact, this.path);
    if (!declared) {
      throw new DebusineError(
        'not-found',
        `Artifact ${String(this.artifactId)} has no file ${this.path}`,
        { artifact: this.artifactId, file: this.path },
      );
    }
    if (declared.size > this.#cache.cap) {
      throw new DebusineError(
        'validation',
        `${this.path} of artifact ${String(this.artifactId)} is ${String(declared.size)} bytes, more than the ${String(this.#cache.cap)} the log cache may hold: download it instead`,
        { artifact: this.artifactId, file: this.path, rule: 'log-size' },
      );
    }
    this.size = declared.size;
    await this.#cache.discard(this.key);
    await this.#cache.makeRoom(declared.size, keep());
    const target = this.#cache.fileOf(this.key);
    const download = downloadArtifactFile(client, artifact, this.path, target, {
      signal,
      onStaged: (path) => {
        this.#readPath = path;
      },
      onProgress: () => {
        void this.#pump();
      },
    }).then(async () => {
      this.#readPath = target;
      await this.#cache.add(this.key, {
        apiUrl: source.apiUrl,
        artifactId: this.artifactId,
        path: this.path,
        size: declared.size,
        sha256: declared.sha256,
      });
    });
    this.#settled = this.#complete(download);
  }

  /** Up to `count` lines from `from`, within the window's byte budget. */
  async lines(from: number, count: number): Promise<LogLine[]> {
    this.#throwIfFailed();
    const to = Math.min(this.index.lines, from + count);
    const fd = this.#fd;
    if (!fd || from >= to) return [];
    const lines = await readWindow(fd, this.index, from, to);
    // It may have failed while the lines were read: they were never verified then.
    this.#throwIfFailed();
    return lines;
  }

  /** The descriptor searches read through; none before the first bytes arrived. */
  reader(): FileHandle | undefined {
    this.#throwIfFailed();
    return this.#fd;
  }

  /** Stops the download if it still runs; the file then fails as cancelled. */
  async cancel(): Promise<void> {
    this.#abort.abort();
    await this.#settled;
  }

  /** Stops the download if it still runs, and closes the file once it has settled. */
  async close(): Promise<void> {
    this.#abort.abort();
    await this.#settled;
    await this.#pumping?.catch(() => undefined);
    await this.#fd?.close().catch(() => undefined);
    this.#fd = undefined;
  }

  async #complete(transfer: Promise<void>): Promise<void> {
    try {
      await transfer;
      await this.#pump();
      if (this.#pumpError) throw this.#pumpError;
      if (this.index.bytes !== this.size) {
        throw new Error(`read ${String(this.index.bytes)} of its ${String(this.size)} bytes`);
      }
      this.index.finish();
      this.#chunk = undefined;
      await this.#analyse();
      this.analysis = this.#analyzer?.finish() ?? null;
      this.state = 'ready';
    } catch (error) {
      this.state = 'failed';
      this.error =
        error instanceof DebusineError
          ? error
          : new DebusineError(
              'internal',
              `Cannot read ${this.path} of artifact ${String(this.artifactId)}: ${error instanceof Error ? error.message : String(error)}`,
              { artifact: this.artifactId, file: this.path },
            );
      await this.#pumping?.catch(() => undefined);
      await this.#fd?.close().catch(() => undefined);
      this.#fd = undefined;
    }
    this.#notify(true);
  }

  /** Reads what reached the disk since last time; one pass at a time, again if asked. */
  #pump(): Promise<void> {
    this.#asked++;
    if (this.#pumping) return this.#pumping;
    const pass = async () => {
      let seen: number;
      do {
        seen = this.#asked;
        await this.#readNew();
      } while (seen !== this.#asked);
    };
    this.#pumping = pass()
      .catch((error: unknown) => {
        this.#pumpError ??= error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        this.#pumping = undefined;
      });
    return this.#pumping;
  }

  async #readNew(): Promise<void> {
    if (this.state !== 'loading' || this.#pumpError) return;
    if (!this.#fd) {
      if (this.#readPath === undefined) return;
      try {
        this.#fd = await open(this.#readPath, 'r');
      } catch (error) {
        // The download has not created its file yet: the next progress event tries again.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
    }
    const buffer = (this.#chunk ??= Buffer.allocUnsafe(READ_CHUNK));
    for (;;) {
      const room = Math.min(buffer.length, this.size - this.index.bytes);
      if (room <= 0) break;
      const { bytesRead } = await this.#fd.read(buffer, 0, room, this.index.bytes);
      if (bytesRead === 0) break;
      this.index.push(buffer.subarray(0, bytesRead));
      this.#notify(false);
    }
    await this.#analyse();
    this.#notify(false);
  }

  /** Gives the analyser the lines completed since last time. */
  async #analyse(): Promise<void> {
    const fd = this.#fd;
    const lines = this.index.lines;
    if (!fd || lines === 0) {
      // An empty log: only its name can say what it is.
      if (this.index.finished) this.#analyzer ??= this.#analyzerFor('');
      return;
    }
    if (this.#analyzer === undefined) {
      let first = '';
      await readLines(fd, this.index, 0, 1, (text) => {
        first = text;
        return false;
      });
      this.#analyzer = this.#analyzerFor(first);
    }
    const analyzer = this.#analyzer;
    if (!analyzer || this.#analyzed >= lines) return;
    await readLines(fd, this.index, this.#analyzed, lines, (text, line) => {
      analyzer.push(text, line);
      return undefined;
    });
    this.#analyzed = lines;
  }

  #throwIfFailed(): void {
    if (this.error) throw this.error;
  }

  #analyzerFor(firstLine: string): SbuildLogAnalyzer | null {
    return isSbuildLog(this.path, firstLine) ? new SbuildLogAnalyzer() : null;
  }

  /**
   * Tells the store, at most once per NOTIFY_MS. What a throttled call held back is told
   * when the interval ends: a download that pauses right after a few lines (a slow server,
   * a live build) would otherwise leave the view on the lines before them until more came.
   */
  #notify(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.#notified < NOTIFY_MS) {
      this.#trailing ??= setTimeout(
        () => {
          this.#trailing = undefined;
          this.#notify(true);
        },
        NOTIFY_MS - (now - this.#notified),
      );
      return;
    }
    clearTimeout(this.#trailing);
    this.#trailing = undefined;
    this.#notified = now;
    this.#onChange(this);
  }
}
