/**
 * The live log of a running work request: `{api}/ws/1.0/work-request/<id>/logs/`.
 *
 * The server (WorkRequestLogsConsumer) authenticates it by a web session cookie only, never
 * by the `Token` header the completion websocket takes: without a session it serves what
 * an anonymous user may see, the work requests of public workspaces. The app holds no
 * session, so it sends no credentials at all here, and its token never travels on this
 * socket. The server answers `{"type": "connected"}`, then `log_data` messages
 * (`data`, `stream`, `timestamp`) read from a Redis stream that keeps about the last
 * thousand chunks, so a late reader starts part-way; `log_data_end` (`exit_code`) ends one
 * command of the task and the server closes the socket, though the task may run another.
 * A refusal is `connection_rejected` with a `reason_code`: `not_found` for a work request
 * the anonymous user may not see, `not_running` once it ended (which ends the stream). A server without the route (0.11)
 * refuses the upgrade.
 *
 * Everything it sends is untrusted: each message is bounded (`maxPayload`), its shape
 * checked, and anything else ignored. Reconnecting (after a command ended while the task
 * still runs, or a dropped connection) is bounded. Every connection reads the stream from
 * its start, so a reconnection skips the run of chunks that repeats the last ones seen,
 * matched by timestamp and digest: timestamps alone are the worker's word and may go
 * backwards or far ahead, so they never decide on their own what is dropped. The first
 * connection keeps every chunk, in the order received.
 */
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import { normaliseApiUrl } from '../api/http';
import { APP_NAME, APP_VERSION } from '../version';

/** A chunk is at most 64 KiB of output; its JSON escapes may take up to six times that. */
export const MAX_LIVE_MESSAGE_BYTES = 512 * 1024;
/** Connections after the first, over the whole life of one stream. */
export const MAX_RECONNECTS = 5;
const HANDSHAKE_MS = 15_000;
/**
 * The most a server may stay silent once it accepted the upgrade: it greets at once with
 * `connected`, and without a bound a server that never does would hold the view at
 * "connecting" for good.
 */
const FIRST_MESSAGE_MS = 15_000;
/**
 * Chunks remembered to recognise what a reconnection reads again: the server's stream keeps
 * about a thousand, so its start is among the last this many seen.
 */
const MAX_SEEN = 4096;
/** Chunks of at most this many characters are remembered as they are, not by a digest. */
const SHORT_CHUNK = 64;

export const LOST_RECONNECTING =
  'Some output may have been lost while reconnecting: the server no longer held the last output shown.';
export const MISALIGNED_RECONNECTING =
  'Some output may be missing or repeated: on reconnecting, the server sent output that did not line up with what was shown.';

/** Where a reconnection is in the chunks it reads again. */
interface Replay {
  /**
   * Positions in the chunks seen where the next replayed chunk may be, one for each way the
   * chunks replayed so far line up with them; null before the first chunk.
   */
  candidates: number[] | null;
  /** A chunk not seen before arrived: everything from it on is new. */
  done: boolean;
}

export type LiveStreamEnd =
  /** The task ended (the server closed and the work request no longer runs). */
  | { kind: 'ended'; exitCode: number | null }
  /** The server will not stream it: `reason` is one line for the user. */
  | { kind: 'refused'; reason: string }
  /** The connection broke more often than the reconnects allow, or never opened. */
  | { kind: 'lost'; reason: string }
  /** Stopped by the app (closed, or the local copy reached its bound). */
  | { kind: 'stopped' };

export interface LiveStreamOptions {
  apiUrl: string;
  workRequestId: number;
  /** Each chunk of text, in order, once. */
  onText: (text: string) => void;
  onConnected?: () => void;
  /** A line for the user when output may have been lost or repeated on reconnecting. */
  onNotice?: (notice: string) => void;
  /** Called once, at the end. */
  onEnd: (end: LiveStreamEnd) => void;
  /**
   * Whether the work request still runs, asked when the server closes the stream: it
   * closes it at the end of each command the task runs, not only at the task's end.
   */
  stillRunning: () => Promise<boolean>;
  /** Delay before reconnect `n` (from 1); tests make it 0. */
  reconnectDelayMs?: (n: number) => number;
  handshakeTimeoutMs?: number;
  /** The wait for the server's first message after the upgrade; FIRST_MESSAGE_MS unless set. */
  firstMessageMs?: number;
}

/** The live log's address, normalised as the completion websocket's is. */
export function liveLogSocketUrl(apiUrl: string, workRequestId: number): string {
  const url = new URL(
    `${normaliseApiUrl(apiUrl)}/ws/1.0/work-request/${String(workRequestId)}/logs/`,
  );
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** Microseconds since the epoch, or null: ISO strings with offsets do not sort as text. */
function timeOf(timestamp: unknown): number | null {
  if (typeof timestamp !== 'string' || !TIMESTAMP.test(timestamp)) return null;
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return null;
  const fraction = /\.(\d+)/.exec(timestamp)?.[1] ?? '';
  const micros = Number((fraction + '000000').slice(3, 6));
  return ms * 1000 + micros;
}

/** A text frame's payload, whichever of the forms `ws` hands it in. */
function textOf(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** One line of a refusal as the user reads it; the server's words are never shown raw. */
function refusalOf(code: unknown): string {
  if (code === 'not_found') {
    return 'The server streams live logs only of public workspaces to the app; this one is not.';
  }
  return 'The server refused to stream this log.';
}

export class LiveLogStream {
  readonly #options: LiveStreamOptions;
  #socket: WebSocket | undefined;
  #reconnects = 0;
  #ended = false;
  /** Connections opened: every one after the first reads again what was seen. */
  #connections = 0;
  /**
   * Keys (time, and text or digest) of the last MAX_SEEN chunks passed on, oldest first, as
   * a ring.
   */
  readonly #seen: string[] = [];
  #seenStart = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Ends the stream when the server sends nothing after accepting the connection. */
  #silence: NodeJS.Timeout | undefined;
  /** The exit code of the last command that ended, on any connection. */
  #exitCode: number | null = null;

  constructor(options: LiveStreamOptions) {
    this.#options = options;
  }

  start(): void {
    this.#connect();
  }

  /** Stops it; onEnd is told `stopped` unless it had ended already. */
  stop(): void {
    this.#finish({ kind: 'stopped' });
  }

  get ended(): boolean {
    return this.#ended;
  }

  #finish(end: LiveStreamEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#silence);
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.removeAllListeners('message');
    socket?.terminate();
    this.#options.onEnd(end);
  }

  #connect(): void {
    if (this.#ended) return;
    const options = this.#options;
    let url: string;
    try {
      url = liveLogSocketUrl(options.apiUrl, options.workRequestId);
    } catch (error) {
      this.#finish({ kind: 'refused', reason: error instanceof Error ? error.message : 'Bad URL' });
      return;
    }
    // No Token header: the server ignores it here, and a token goes nowhere it is not needed.
    const socket = new WebSocket(url, {
      headers: { 'User-Agent': `${APP_NAME}/${APP_VERSION}` },
      handshakeTimeout: options.handshakeTimeoutMs ?? HANDSHAKE_MS,
      maxPayload: MAX_LIVE_MESSAGE_BYTES,
      followRedirects: false,
      perMessageDeflate: false,
    });
    this.#socket = socket;
    const replay: Replay | null =
      this.#connections++ > 0 ? { candidates: null, done: false } : null;
    let connected = false;
    let refused: string | null = null;
    let endedCommand = false;
    let notRunning = false;
    let exitCode: number | null = null;

    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      // A server without the route (before 0.16) fails the upgrade: its ASGI router finds no
      // route, which answers 404 or, as an error of the application, 500.
      refused =
        status === 404 || status === 500
          ? 'This server has no live log (it needs Debusine 0.16 or later).'
          : `The server refused the live log (HTTP ${String(status)}).`;
      response.resume();
      socket.terminate();
    });
    socket.on('open', () => {
      const wait = options.firstMessageMs ?? FIRST_MESSAGE_MS;
      this.#silence = setTimeout(() => {
        if (this.#socket !== socket) return;
        this.#finish({
          kind: 'lost',
          reason: `The server accepted the live log connection but sent nothing for ${String(wait / 1000)} s.`,
        });
      }, wait);
    });
    socket.on('message', (data, isBinary) => {
      clearTimeout(this.#silence);
      if (isBinary) return;
      let message: Record<string, unknown> | null;
      try {
        message = record(JSON.parse(textOf(data)));
      } catch {
        return;
      }
      if (!message) return;
      switch (message.type) {
        case 'connected':
          if (!connected) {
            connected = true;
            options.onConnected?.();
          }
          return;
        case 'connection_rejected':
          // Not running (any more): the step ended, on a reconnect after its last command.
          if (message.reason_code === 'not_running') notRunning = true;
          else refused = refusalOf(message.reason_code);
          return;
        case 'log_data':
          if (typeof message.data === 'string')
            this.#chunk(message.data, message.timestamp, replay);
          return;
        case 'log_data_end':
          endedCommand = true;
          exitCode =
            typeof message.exit_code === 'number' && Number.isSafeInteger(message.exit_code)
              ? message.exit_code
              : null;
          this.#exitCode = exitCode;
          return;
        default:
          return;
      }
    });
    socket.on('error', () => {
      // 'close' follows every error and decides what happens next.
    });
    socket.on('close', () => {
      if (this.#socket !== socket || this.#ended) return;
      clearTimeout(this.#silence);
      this.#socket = undefined;
      if (refused !== null) {
        this.#finish({ kind: 'refused', reason: refused });
        return;
      }
      if (notRunning) {
        this.#finish({ kind: 'ended', exitCode: this.#exitCode });
        return;
      }
      if (!connected && this.#reconnects === 0 && !endedCommand) {
        // The first attempt never got as far as the server's greeting: a server that
        // closes the upgrade without a word (no route) or is unreachable.
        this.#retryOr({ kind: 'lost', reason: 'The live log could not be opened.' }, null);
        return;
      }
      this.#retryOr(
        endedCommand
          ? { kind: 'ended', exitCode }
          : { kind: 'lost', reason: 'The live log stopped arriving.' },
        exitCode,
      );
    });
  }

  /** Reconnects when the work request still runs and reconnects are left; else ends. */
  #retryOr(end: LiveStreamEnd, exitCode: number | null): void {
    const options = this.#options;
    options.stillRunning().then(
      (running) => {
        if (this.#ended) return;
        if (!running) {
          this.#finish({ kind: 'ended', exitCode: exitCode ?? this.#exitCode });
          return;
        }
        if (this.#reconnects >= MAX_RECONNECTS) {
          this.#finish(
            end.kind === 'ended' ? { kind: 'lost', reason: 'The live log ended early.' } : end,
          );
          return;
        }
        this.#reconnects++;
        const delay = options.reconnectDelayMs?.(this.#reconnects) ?? 1000 * 2 ** this.#reconnects;
        this.#timer = setTimeout(() => {
          this.#connect();
        }, delay);
      },
      () => {
        this.#finish(end);
      },
    );
  }

  #chunk(data: string, timestamp: unknown, replay: Replay | null): void {
    // Digests, not the chunks: remembering thousands of chunks of up to 64 KiB would hold
    // hundreds of megabytes. A short chunk is its own key, no longer than its digest would
    // be, and spares the hashing when a server floods the stream with tiny chunks.
    const time = String(timeOf(timestamp) ?? '');
    const key =
      data.length <= SHORT_CHUNK
        ? `${time}|=${data}`
        : `${time}|#${createHash('sha256').update(data).digest('base64')}`;
    if (replay && !replay.done) {
      const seen = this.#seen.length;
      const next: number[] = [];
      if (replay.candidates === null) {
        for (let i = 0; i < seen; i++) if (this.#seenAt(i) === key) next.push(i + 1);
      } else {
        for (const at of replay.candidates) {
          if (at < seen && this.#seenAt(at) === key) next.push(at + 1);
        }
      }
      if (next.length > 0) {
        replay.candidates = next;
        return;
      }
      // The first chunk not seen before ends the replay; it lined up when the chunks
      // replayed before it ran to the last one seen.
      replay.done = true;
      if (replay.candidates === null) {
        if (seen > 0) this.#options.onNotice?.(LOST_RECONNECTING);
      } else if (!replay.candidates.includes(seen)) {
        this.#options.onNotice?.(MISALIGNED_RECONNECTING);
      }
    }
    this.#remember(key);
    this.#options.onText(data);
  }

  /** The key of the `i`th chunk remembered, oldest first. */
  #seenAt(i: number): string | undefined {
    return this.#seen[(this.#seenStart + i) % MAX_SEEN];
  }

  #remember(key: string): void {
    if (this.#seen.length < MAX_SEEN) {
      this.#seen.push(key);
    } else {
      this.#seen[this.#seenStart] = key;
      this.#seenStart = (this.#seenStart + 1) % MAX_SEEN;
    }
  }
}
