/**
 * The live logs open in the viewer (and followed for early warnings), behind opaque
 * handles as the stored logs are (log-store.ts). One stream per server and work request,
 * shared by its handles; closed, and its copy removed, with its last handle. Each handle
 * belongs to the server it was opened on: asked for while another server is active, it
 * answers nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DebusineError } from '../../shared/errors';
import type { LogSearchResult, LogState, LogWindow } from '../../shared/log-types';
import { LiveLog, type LiveLogOptions } from './live-log';
import type { SearchAsk } from './log-search';
import { MAX_WINDOW_LINES } from './log-store';

/** Live logs streaming at once (the viewer's and the early warnings'). */
export const MAX_LIVE_LOGS = 8;

export interface LiveOpen {
  apiUrl: string;
  workRequestId: number;
  sbuild: boolean;
  stillRunning: () => Promise<boolean>;
  onLine?: LiveLogOptions['onLine'];
}

export class LiveLogStore {
  readonly #dir: string;
  readonly #emit: (state: LogState) => void;
  readonly #maxBytes: number | undefined;
  readonly #maxLines: number | undefined;
  readonly #reconnectDelayMs: ((n: number) => number) | undefined;
  readonly #handles = new Map<string, LiveLog>();
  /** Who hears of each handle's progress: the page that opened it, no one else. */
  readonly #handleListeners = new Map<string, (state: LogState) => void>();
  readonly #logs = new Map<string, LiveLog>();
  /** Extra listeners of each log's lines (early warnings), by log. */
  readonly #listeners = new Map<LiveLog, Set<(text: string, line: number) => void>>();
  #cleared: Promise<void> | undefined;

  constructor(options: {
    dir: string;
    emit?: (state: LogState) => void;
    maxBytes?: number;
    maxLines?: number;
    reconnectDelayMs?: (n: number) => number;
  }) {
    this.#dir = options.dir;
    this.#emit = options.emit ?? (() => undefined);
    this.#maxBytes = options.maxBytes;
    this.#maxLines = options.maxLines;
    this.#reconnectDelayMs = options.reconnectDelayMs;
  }

  has(handle: string): boolean {
    return this.#handles.has(handle);
  }

  /**
   * Opens a live log for a new handle; `onChange` hears of that handle's progress (without
   * it, the store's own `emit` does).
   */
  async open(request: LiveOpen, onChange?: (state: LogState) => void): Promise<LogState> {
    // Copies a crash left behind are removed once, before the first is written.
    this.#cleared ??= rm(this.#dir, { recursive: true, force: true }).then(() =>
      mkdir(this.#dir, { recursive: true, mode: 0o700 }).then(() => undefined),
    );
    await this.#cleared;
    const key = `${request.apiUrl}|${String(request.workRequestId)}`;
    let log = this.#logs.get(key);
    if (!log) {
      if (this.#logs.size >= MAX_LIVE_LOGS) {
        throw new DebusineError(
          'conflict',
          `${String(MAX_LIVE_LOGS)} live logs are open already: close one before opening another`,
          { rule: 'live-logs' },
        );
      }
      const listeners = new Set<(text: string, line: number) => void>();
      const made = new LiveLog({
        apiUrl: request.apiUrl,
        workRequestId: request.workRequestId,
        file: join(this.#dir, `${randomUUID()}.log`),
        sbuild: request.sbuild,
        stillRunning: request.stillRunning,
        onLine: (text, line) => {
          for (const listener of listeners) listener(text, line);
        },
        onChange: (changed) => {
          this.#changed(changed);
        },
        ...(this.#maxBytes === undefined ? {} : { maxBytes: this.#maxBytes }),
        ...(this.#maxLines === undefined ? {} : { maxLines: this.#maxLines }),
        ...(this.#reconnectDelayMs ? { reconnectDelayMs: this.#reconnectDelayMs } : {}),
      });
      this.#logs.set(key, made);
      this.#listeners.set(made, listeners);
      made.start();
      log = made;
    }
    if (request.onLine) this.#listeners.get(log)?.add(request.onLine);
    log.refs++;
    const handle = randomUUID();
    this.#handles.set(handle, log);
    if (onChange) this.#handleListeners.set(handle, onChange);
    return log.state(handle);
  }

  /** The log of this handle, on this server; anything else is not open here. */
  #log(handle: string, apiUrl: string | null): LiveLog {
    const log = this.#handles.get(handle);
    // An unknown handle fails this too: a log's server is never undefined.
    if (log?.apiUrl !== apiUrl) {
      throw new DebusineError(
        'not-found',
        'This live log is not open (it was closed, or it belongs to another server)',
        { rule: 'log-handle' },
      );
    }
    return log;
  }

  state(handle: string, apiUrl: string | null): LogState {
    return this.#log(handle, apiUrl).state(handle);
  }

  /** Resolves once the log's stream has ended (for tests and the early warnings). */
  async ended(handle: string, apiUrl: string | null): Promise<LogState> {
    const log = this.#log(handle, apiUrl);
    await log.done;
    return log.state(handle);
  }

  async lines(
    handle: string,
    apiUrl: string | null,
    from: number,
    count: number,
  ): Promise<LogWindow> {
    const log = this.#log(handle, apiUrl);
    // Counted before the read, as for a stored log: the live one grows while it is read.
    const known = log.index.lines;
    const done = log.ended;
    const lines = await log.lines(from, Math.min(count, MAX_WINDOW_LINES));
    return { handle, from, lines, totalLines: Math.max(known, from + lines.length), done };
  }

  search(handle: string, apiUrl: string | null, ...ask: SearchAsk): Promise<LogSearchResult> {
    return this.#log(handle, apiUrl).search(...ask);
  }

  /** Stops following (for every handle on it); what arrived stays readable. */
  async cancel(handle: string, apiUrl: string | null): Promise<LogState> {
    const log = this.#log(handle, apiUrl);
    log.stop();
    await log.done;
    return log.state(handle);
  }

  /** Closes a handle wherever it was opened (closing is never refused). */
  async close(handle: string, onLine?: (text: string, line: number) => void): Promise<void> {
    const log = this.#handles.get(handle);
    if (!log) return;
    this.#handles.delete(handle);
    this.#handleListeners.delete(handle);
    if (onLine) this.#listeners.get(log)?.delete(onLine);
    if (--log.refs > 0) return;
    const key = `${log.apiUrl}|${String(log.workRequestId)}`;
    if (this.#logs.get(key) === log) this.#logs.delete(key);
    this.#listeners.delete(log);
    await log.close();
    await rm(log.file, { force: true }).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#handles.keys()].map((handle) => this.close(handle)));
  }

  #changed(log: LiveLog): void {
    for (const [handle, open] of this.#handles) {
      if (open === log) (this.#handleListeners.get(handle) ?? this.#emit)(log.state(handle));
    }
  }
}
