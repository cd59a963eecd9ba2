/**
 * A running step's live log, copied into a growing local file and read as the viewer reads
 * a downloaded one: the same line index (grown as the text arrives), the same windows of
 * lines, the same searches and, for an sbuild step, the same analyser, fed each line as it
 * completes. Its LogState is a file's with `live` beside it.
 *
 * Bounded whatever the server sends: the copy stops at `maxBytes` on disk (the stream is
 * then stopped, and the step's stored log has the rest once it ends); text waiting to be
 * written stops at MAX_PENDING bytes and MAX_PENDING_PARTS pieces (a server faster than the
 * disk is cut off rather than held in memory); lines are indexed, never held, and a long
 * line is read only by its start (line-reader.ts).
 *
 * What arrives while a write runs is gathered and written by the next one: a server may send
 * a million chunks of a few bytes, and a write, an index update and a read-back for the
 * analyser for each, one promise chained behind another, would take far longer than the
 * socket takes to deliver them and hold every chunk's promise meanwhile.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { DebusineError, serializeError } from '../../shared/errors';
import type { LiveLogInfo, LogLine, LogState } from '../../shared/log-types';
import { LineIndex } from './line-index';
import { readLines, readWindow } from './line-reader';
import { LogSearches, type SearchAsk } from './log-search';
import { SbuildLogAnalyzer } from './sbuild-log';
import { LiveLogStream, type LiveStreamEnd } from './live-log-stream';

/** What one live log may take on disk by default. */
export const LIVE_LOG_MAX_BYTES = 128 * 2 ** 20;
/**
 * Lines one live log may hold: the index takes 4 bytes a line, so a server sending nothing
 * but line breaks would otherwise grow it to half a gigabyte within the bound on disk.
 * Real build logs stay far below (a 100 MB log has about 1.5 million lines).
 */
export const LIVE_LOG_MAX_LINES = 5_000_000;
/** Text received and not yet on disk. */
const MAX_PENDING = 16 * 2 ** 20;
/**
 * Pieces of it: small chunks are copied together into blocks of BLOCK bytes, and a chunk of
 * more than BLOCK / 4 is its own piece, so the bound of bytes is reached long before this.
 */
const MAX_PENDING_PARTS = 4096;
const BLOCK = 64 * 1024;
/** The most one write takes of the text waiting. */
const MAX_BATCH = 2 ** 20;
const NOTIFY_MS = 100;
const SBUILD_FIRST_LINE = 'sbuild (Debian sbuild)';

export interface LiveLogOptions {
  apiUrl: string;
  workRequestId: number;
  /** Where the copy is written; the caller removes it after close. */
  file: string;
  /** Analyse it as an sbuild log (the step is an sbuild task). */
  sbuild: boolean;
  stillRunning: () => Promise<boolean>;
  /** Each completed line, as the viewer shows it, with its 0-based number. */
  onLine?: (text: string, line: number) => void;
  onChange: (log: LiveLog) => void;
  maxBytes?: number;
  maxLines?: number;
  reconnectDelayMs?: (n: number) => number;
}

export class LiveLog {
  readonly apiUrl: string;
  readonly workRequestId: number;
  readonly path: string;
  /** The local copy. */
  readonly file: string;
  readonly index = new LineIndex();
  readonly searches = new LogSearches();
  refs = 0;
  status: LiveLogInfo['status'] = 'connecting';
  message: string | null = null;
  exitCode: number | null = null;
  sbuildStart: number | null = null;
  /** Each distinct notice of the stream, once: there are only a few kinds. */
  readonly notices: string[] = [];
  readonly #options: LiveLogOptions;
  readonly #maxBytes: number;
  readonly #maxLines: number;
  readonly #analyzer: SbuildLogAnalyzer | null;
  readonly #stream: LiveLogStream;
  #fd: FileHandle | undefined;
  #opened: Promise<void>;
  #writing: Promise<void> = Promise.resolve();
  #flushing = false;
  /** Text waiting to be written, in order. */
  readonly #queue: Buffer[] = [];
  /** The last piece of #queue while small chunks are still copied into it, and its use. */
  #block: Buffer | undefined;
  #blockUsed = 0;
  #pending = 0;
  #written = 0;
  #analyzed = 0;
  #notified = 0;
  #noticeTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #failure: DebusineError | null = null;
  /** Settles once the stream has ended and everything it sent is indexed. */
  readonly done: Promise<void>;
  #resolveDone: () => void = () => undefined;

  constructor(options: LiveLogOptions) {
    this.#options = options;
    this.apiUrl = options.apiUrl;
    this.workRequestId = options.workRequestId;
    this.file = options.file;
    this.path = `live log of work request #${String(options.workRequestId)}`;
    this.#maxBytes = options.maxBytes ?? LIVE_LOG_MAX_BYTES;
    this.#maxLines = options.maxLines ?? LIVE_LOG_MAX_LINES;
    this.#analyzer = options.sbuild ? new SbuildLogAnalyzer() : null;
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
    this.#opened = open(options.file, 'w+', 0o600).then((fd) => {
      this.#fd = fd;
    });
    this.#stream = new LiveLogStream({
      apiUrl: options.apiUrl,
      workRequestId: options.workRequestId,
      stillRunning: options.stillRunning,
      ...(options.reconnectDelayMs ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
      onConnected: () => {
        if (this.status === 'connecting') this.status = 'streaming';
        this.#notify(true);
      },
      onNotice: (notice) => {
        if (this.notices.includes(notice)) return;
        this.notices.push(notice);
        this.#notify(true);
      },
      onText: (text) => {
        this.#receive(text);
      },
      onEnd: (end) => {
        void this.#end(end);
      },
    });
  }

  start(): void {
    this.#opened.then(
      () => {
        this.#stream.start();
      },
      (error: unknown) => {
        this.#failure = new DebusineError(
          'internal',
          `Cannot keep the live log: ${error instanceof Error ? error.message : String(error)}`,
        );
        void this.#end({ kind: 'stopped' });
      },
    );
  }

  get ended(): boolean {
    return this.index.finished;
  }

  state(handle: string): LogState {
    return {
      handle,
      artifactId: 0,
      path: this.path,
      size: this.index.bytes,
      bytes: this.index.bytes,
      lines: this.index.lines,
      state: this.#failure ? 'failed' : this.index.finished ? 'ready' : 'loading',
      fromCache: false,
      error: this.#failure ? serializeError(this.#failure) : null,
      analysis: this.#analyzer?.finish() ?? null,
      live: {
        workRequestId: this.workRequestId,
        server: this.apiUrl,
        status: this.status,
        message: this.message,
        exitCode: this.exitCode,
        sbuildStart: this.sbuildStart,
        notices: this.notices.slice(),
      },
    };
  }

  async lines(from: number, count: number): Promise<LogLine[]> {
    const fd = this.#fd;
    const to = Math.min(this.index.lines, from + count);
    if (!fd || from >= to || this.#closed) return [];
    return readWindow(fd, this.index, from, to);
  }

  async search(...ask: SearchAsk): ReturnType<LogSearches['find']> {
    const fd = this.#closed ? undefined : this.#fd;
    const source = fd && this.index.bytes > 0 ? { file: fd, index: this.index } : null;
    return this.searches.find(source, ...ask);
  }

  /** Stops the stream; what arrived stays readable until close. */
  stop(): void {
    this.#stream.stop();
  }

  async close(): Promise<void> {
    this.#stream.stop();
    await this.done;
    this.#closed = true;
    clearTimeout(this.#noticeTimer);
    await this.#opened.catch(() => undefined);
    await this.#fd?.close().catch(() => undefined);
    this.#fd = undefined;
  }

  #receive(text: string): void {
    if (this.#closed || this.index.finished) return;
    let bytes = Buffer.from(text, 'utf8');
    const room = this.#maxBytes - this.#written - this.#pending;
    const full = bytes.length >= room;
    if (full) bytes = bytes.subarray(0, Math.max(0, room));
    if (
      this.#pending + bytes.length > MAX_PENDING ||
      (this.#queue.length >= MAX_PENDING_PARTS && !this.#fits(bytes.length))
    ) {
      this.#stopWith('The server sent the live log faster than it could be kept; it stopped.');
      return;
    }
    this.#enqueue(bytes);
    if (!this.#flushing) {
      this.#flushing = true;
      this.#writing = this.#flush();
    }
    if (full) {
      this.#stopWith(
        `The live copy stops at ${String(Math.round(this.#maxBytes / 2 ** 20))} MiB; the stored log has all of it once the step ends.`,
      );
    }
  }

  /** Whether `length` bytes go into the block being filled. */
  #fits(length: number): boolean {
    return this.#block !== undefined && this.#blockUsed + length <= BLOCK;
  }

  #enqueue(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#pending += bytes.length;
    if (this.#fits(bytes.length) && this.#block) {
      bytes.copy(this.#block, this.#blockUsed);
      this.#blockUsed += bytes.length;
      return;
    }
    this.#seal();
    if (bytes.length > BLOCK / 4) {
      this.#queue.push(bytes);
      return;
    }
    const block = Buffer.allocUnsafe(BLOCK);
    bytes.copy(block, 0);
    this.#queue.push(block);
    this.#block = block;
    this.#blockUsed = bytes.length;
  }

  /** Ends the block being filled at what it holds. */
  #seal(): void {
    if (!this.#block) return;
    const held = this.#block.subarray(0, this.#blockUsed);
    // A block sealed mostly empty (a small chunk between large ones) is copied out, so that
    // MAX_PENDING_PARTS such blocks do not keep a whole BLOCK each for a few bytes.
    this.#queue[this.#queue.length - 1] = this.#blockUsed < BLOCK / 2 ? Buffer.from(held) : held;
    this.#block = undefined;
  }

  /** Writes what waits, a batch at a time, until nothing does. */
  async #flush(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        this.#seal();
        let count = 0;
        let bytes = 0;
        for (const part of this.#queue) {
          if (count > 0 && bytes + part.length > MAX_BATCH) break;
          bytes += part.length;
          count++;
        }
        const parts = this.#queue.splice(0, count);
        await this.#write(parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts, bytes));
      }
    } finally {
      this.#flushing = false;
    }
  }

  #stopWith(message: string): void {
    this.message ??= message;
    this.#stream.stop();
  }

  async #write(batch: Buffer): Promise<void> {
    const fd = this.#fd;
    try {
      // Text queued behind what reached the bound of lines is dropped.
      if (!fd || this.#failure || batch.length === 0 || this.index.lines >= this.#maxLines) return;
      const chunk = this.#withinLines(batch);
      let offset = 0;
      while (offset < chunk.length) {
        const { bytesWritten } = await fd.write(
          chunk,
          offset,
          chunk.length - offset,
          this.#written,
        );
        offset += bytesWritten;
        this.#written += bytesWritten;
      }
      this.index.push(chunk);
      if (this.index.lines >= this.#maxLines) {
        this.#stopWith(
          `The live copy stops at ${this.#maxLines.toLocaleString('en')} lines; the stored log has all of it once the step ends.`,
        );
      }
      await this.#analyse();
      this.#notify(false);
    } catch (error) {
      this.#failure ??= new DebusineError(
        'internal',
        `Cannot keep the live log: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.#stream.stop();
    } finally {
      this.#pending -= batch.length;
    }
  }

  /**
   * The batch up to the line break that reaches the bound of lines: a batch gathers up to
   * MAX_BATCH bytes, which would otherwise carry the index that many lines past it.
   */
  #withinLines(batch: Buffer): Buffer {
    const room = this.#maxLines - this.index.lines;
    // Fewer bytes than lines left cannot hold enough line breaks to reach it.
    if (batch.length < room) return batch;
    let from = 0;
    for (let found = 0; found < room; found++) {
      const at = batch.indexOf(10, from);
      if (at < 0) return batch;
      from = at + 1;
    }
    return batch.subarray(0, from);
  }

  /** Gives the analyser and the listener the lines completed since last time. */
  async #analyse(): Promise<void> {
    const fd = this.#fd;
    const lines = this.index.lines;
    if (!fd || this.#analyzed >= lines) return;
    const analyzer = this.#analyzer;
    const onLine = this.#options.onLine;
    await readLines(fd, this.index, this.#analyzed, lines, (text, line) => {
      if (this.sbuildStart === null && text.startsWith(SBUILD_FIRST_LINE)) this.sbuildStart = line;
      analyzer?.push(text, line);
      onLine?.(text, line);
      return undefined;
    });
    this.#analyzed = lines;
  }

  async #end(end: LiveStreamEnd): Promise<void> {
    await this.#writing;
    if (end.kind === 'ended') {
      this.status = 'ended';
      this.exitCode = end.exitCode;
    } else if (end.kind === 'refused' || end.kind === 'lost') {
      this.status = end.kind;
      this.message ??= end.reason;
    } else {
      this.status = 'stopped';
    }
    if (!this.index.finished) {
      this.index.finish();
      // The last line, if the stream ended without a line break.
      await this.#analyse().catch(() => undefined);
    }
    this.#resolveDone();
    this.#notify(true);
  }

  /** At most one change every NOTIFY_MS, the last one always told. */
  #notify(force: boolean): void {
    if (this.#closed) return;
    const now = Date.now();
    if (!force && now - this.#notified < NOTIFY_MS) {
      this.#noticeTimer ??= setTimeout(() => {
        this.#noticeTimer = undefined;
        this.#notify(true);
      }, NOTIFY_MS);
      return;
    }
    clearTimeout(this.#noticeTimer);
    this.#noticeTimer = undefined;
    this.#notified = now;
    this.#options.onChange(this);
  }
}
