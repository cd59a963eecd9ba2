/**
 * The completion websocket (`{api}/ws/1.0/work-request/on-completed/`, header `Token`):
 * connects, waits for `connected`, reconnects with backoff and jitter, resumes after an
 * outage or a restart with `completed_at_since`, and drops the duplicates the server
 * resends. A rejected connection or a disabled token stops the loop: the user must sign in
 * again. Transport-independent: plain events, no Electron.
 *
 * The token is sent only to the origin it was stored for: a socket whose address is on
 * another origin is not opened, and the watcher stops as signed out.
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { DebusineError, serializeError, type SerializedError } from '../../shared/errors';
import { APP_NAME, APP_VERSION } from '../version';
import { BoundedSet } from '../bounded';
import { completionKey } from '../notify/completion-key';
import {
  compareTimestamps,
  processMessage,
  rejectionOf,
  textOf,
  workRequestCompletedSchema,
} from './messages';
import { reportProblem } from './report';
import { completionSocketUrl } from './socket-url';

export { completionSocketUrl };
import type { ResumePoint, ResumeStore } from './resume-state';

/**
 * The largest message read from the notification service. Its messages are a few hundred
 * bytes (a work request's id, result and completion time); without a bound, ws would
 * gather up to 100 MiB for one message.
 */
const MAX_MESSAGE_BYTES = 64 * 1024;

export type ConnectionState =
  | { state: 'idle' }
  | { state: 'connecting'; attempt: number }
  | { state: 'connected'; since: number }
  | { state: 'reconnecting'; attempt: number; nextAttemptAt: number; error: SerializedError }
  /** The host reported the network down (setNetworkAvailable(false)); no attempts. */
  | { state: 'offline'; since: number }
  /** The token was refused or disabled: sign in again, then start a new watcher. */
  | { state: 'signed-out'; error: SerializedError }
  /** Refused for another reason (an unknown workspace in the filter). */
  | { state: 'stopped'; error: SerializedError };

export type WatcherToken = string | { token: string; origin: string | null } | undefined;

export interface CompletionEvent {
  workRequestId: number;
  completedAt: string;
  result: string;
  /** Date.now() when the websocket message arrived (for latency measurements). */
  receivedAt: number;
}

export interface CompletionWatcherOptions {
  apiUrl: string;
  /**
   * Read on every connection attempt, so a new sign-in is picked up. A token read from the
   * token store comes with the origin it was stored for (null: none known, so it goes
   * nowhere); a bare string is taken to be for `apiUrl`'s origin.
   */
  getToken: () => Promise<WatcherToken> | WatcherToken;
  /** Only completions in these workspaces (names; the server resolves them in all scopes). */
  workspaces?: readonly string[];
  /** Where the resume point is kept; without one, resuming works within this run only. */
  resume?: ResumeStore;
  /**
   * Called for each new completion, one at a time, before the resume point moves past it:
   * a crash while it runs means the completion is delivered again on the next start.
   * It may return a promise, which is awaited; what that resolves to is not used.
   */
  onCompletion?: (event: CompletionEvent) => unknown;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A connection that stays up this long resets the backoff. */
  stableAfterMs?: number;
  /** Ping interval; a missing pong by the next ping drops the connection. */
  heartbeatMs?: number;
  handshakeTimeoutMs?: number;
  random?: () => number;
}

export interface CompletionWatcherEvents {
  state: [ConnectionState];
  /** A new completion is queued (before it is handled, in the order received). */
  received: [CompletionEvent];
  /**
   * More than MAX_PENDING work requests waited: the completions waiting (and this many in
   * all) were dropped without being handled; what they changed must be read instead.
   */
  overflow: [number];
  completed: [CompletionEvent];
  /** A completion handler failed; the completion is not retried in this run. */
  error: [DebusineError];
}

const SEEN_LIMIT = 10_000;
/**
 * Distinct work requests whose completions may wait for their turn. A server may send
 * completions far faster than they are handled (each reads its work request): past this
 * many, the waiting ones are dropped and the router reads what it watches instead
 * ('overflow'), so that memory stays flat whatever the server sends. A night's outage
 * replays hundreds; real servers do not complete a thousand work requests at once.
 */
export const MAX_PENDING = 1000;

export class CompletionWatcher extends EventEmitter<CompletionWatcherEvents> {
  readonly #options: CompletionWatcherOptions;
  #state: ConnectionState = { state: 'idle' };
  #socket: WebSocket | undefined;
  #running = false;
  #online = true;
  #attempt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** The last completion handled, which is where a reconnect resumes. */
  #point: ResumePoint | undefined;
  /** Completions already delivered, so that the server's resends are dropped. */
  readonly #seen = new BoundedSet<string>(SEEN_LIMIT);
  /**
   * Completions waiting for their turn, one per work request (a later completion of the
   * same one takes the place of the earlier), in the order received; at most MAX_PENDING.
   */
  readonly #pending = new Map<number, CompletionEvent>();
  #draining = false;
  /** The resume point's first write and the drain of #pending: stop() and idle() wait for it. */
  #queue: Promise<void> = Promise.resolve();

  constructor(options: CompletionWatcherOptions) {
    super();
    this.#options = options;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Where a reconnect would resume (for diagnostics and tests). */
  get resumePoint(): ResumePoint | undefined {
    return this.#point && { ...this.#point, idsAtLast: [...this.#point.idsAtLast] };
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#point = await this.#options.resume?.load();
    for (const id of this.#point?.idsAtLast ?? []) {
      this.#seen.add(completionKey(id, this.#point?.lastCompletedAt ?? ''));
    }
    this.#connect();
  }

  /**
   * Stops for good. The completion being handled finishes; those queued behind it are left
   * for the next start, which replays them from the resume point (it has not moved past
   * them). Draining a long backlog here made shutting down take minutes.
   */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#retryTimer);
    this.#closeSocket();
    this.#setState({ state: 'idle' });
    await this.#queue;
  }

  /** The host's view of the network (Electron's `net.isOnline`, the browser's `online`). */
  setNetworkAvailable(online: boolean): void {
    if (online === this.#online) return;
    this.#online = online;
    if (!this.#running) return;
    if (!online) {
      clearTimeout(this.#retryTimer);
      this.#closeSocket();
      this.#setState({ state: 'offline', since: Date.now() });
    } else {
      this.#attempt = 0;
      this.#connect();
    }
  }

  /**
   * Drops the socket and connects again now, resuming from the resume point. For when the
   * host knows the socket may be dead without anything having said so: after the computer
   * slept, a socket can stay open on this side while the server forgot it long ago, and
   * only the heartbeat (up to two periods) would notice. The router catches up on the
   * `connected` that follows, as after any reconnection.
   */
  reconnect(): void {
    if (!this.#running || !this.#online) return;
    clearTimeout(this.#retryTimer);
    this.#closeSocket();
    this.#attempt = 0;
    this.#connect();
  }

  /** Resolves once `connected` has arrived: fetch state only after this, so nothing slips. */
  whenConnected(signal?: AbortSignal): Promise<void> {
    if (this.#state.state === 'connected') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onState = (state: ConnectionState): void => {
        if (state.state === 'connected') {
          cleanup();
          resolve();
        } else if (state.state === 'signed-out' || state.state === 'stopped') {
          cleanup();
          reject(DebusineError.fromJSON(state.error));
        }
      };
      const onAbort = (): void => {
        cleanup();
        reject(new DebusineError('cancelled', 'Stopped waiting for the connection'));
      };
      const cleanup = (): void => {
        this.off('state', onState);
        signal?.removeEventListener('abort', onAbort);
      };
      this.on('state', onState);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Waits until every completion received so far has been handled. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #setState(state: ConnectionState): void {
    this.#state = state;
    this.emit('state', state);
  }

  #connect(): void {
    if (!this.#running || !this.#online) return;
    const attempt = this.#attempt;
    this.#setState({ state: 'connecting', attempt });
    void Promise.resolve(this.#options.getToken()).then(
      (given) => {
        if (!this.#running || !this.#online) return;
        const token = typeof given === 'string' ? given : given?.token;
        if (!token) {
          this.#signOut(new DebusineError('auth', 'No token for this server: sign in first.'));
          return;
        }
        const url = this.#socketUrl();
        const issuedFor =
          typeof given === 'string' ? httpOrigin(this.#options.apiUrl) : given?.origin;
        if (issuedFor !== httpOrigin(url)) {
          this.#signOut(
            new DebusineError(
              'auth',
              `The token of this server was issued for ${issuedFor ?? 'another address'}; it is ` +
                `never sent to ${httpOrigin(url)}. Sign in again to this server.`,
              { tokenOrigin: issuedFor ?? null, target: httpOrigin(url) },
            ),
          );
          return;
        }
        this.#open(url, token);
      },
      (error: unknown) => {
        this.#scheduleRetry(new DebusineError('internal', 'Cannot read the token', {}, error));
      },
    );
  }

  #socketUrl(): string {
    return completionSocketUrl(this.#options.apiUrl, {
      workspaces: this.#options.workspaces,
      since: this.#point?.lastCompletedAt,
    });
  }

  /** Opens the socket at `url`, whose origin the token was checked against. */
  #open(url: string, token: string): void {
    const socket = new WebSocket(url, {
      headers: { Token: token, 'User-Agent': `${APP_NAME}/${APP_VERSION}` },
      handshakeTimeout: this.#options.handshakeTimeoutMs ?? 15_000,
      maxPayload: MAX_MESSAGE_BYTES,
    });
    this.#socket = socket;
    let rejected: DebusineError | undefined;
    let failure: DebusineError | undefined;
    let connectedAt: number | undefined;
    let serverDate: string | undefined;
    let alive = true;

    socket.on('upgrade', (response) => {
      serverDate = response.headers.date;
    });
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      if (status === 401 || status === 403) {
        rejected = new DebusineError(
          'auth',
          'The server refused the token for notifications. Sign in again.',
          { status },
        );
      } else {
        failure = new DebusineError(
          'network',
          `The notification service answered HTTP ${String(status)}`,
          { status },
        );
      }
      response.resume();
      // 'close' follows and decides what happens next.
      socket.terminate();
    });
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('message', (data, isBinary) => {
      const receivedAt = Date.now();
      const text = isBinary ? undefined : textOf(data);
      try {
        const handled = processMessage(text, {
          connected: () => {
            connectedAt = Date.now();
            this.#startHeartbeat(
              socket,
              () => alive,
              (value) => (alive = value),
            );
            this.#initialPoint(serverDate);
            this.#setState({ state: 'connected', since: connectedAt });
          },
          work_request_completed: (message) => {
            const parsed = workRequestCompletedSchema.safeParse(message);
            if (parsed.success) this.#received(parsed.data, receivedAt);
          },
        });
        if (!handled && text !== undefined) rejected ??= rejectionOf(text);
      } catch (error) {
        // TOKEN_DISABLED
        rejected = error instanceof DebusineError ? error : rejected;
        socket.close();
      }
    });
    socket.on('error', (error: Error & { code?: unknown }) => {
      // 'close' follows and decides; this handler keeps the error from being thrown, and
      // names a message past the bound, which ws refuses before reading it.
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        failure = new DebusineError(
          'bad-response',
          'The notification service sent a message larger than 64 KiB',
          { limit: MAX_MESSAGE_BYTES },
        );
      }
    });
    socket.on('close', () => {
      if (this.#socket === socket) this.#socket = undefined;
      clearInterval(this.#heartbeat);
      if (!this.#running || !this.#online) return;
      if (rejected) {
        if (rejected.code === 'auth' || rejected.code === 'token-disabled') this.#signOut(rejected);
        else this.#stopWith(rejected);
        return;
      }
      const stable = this.#options.stableAfterMs ?? 10_000;
      if (connectedAt !== undefined && Date.now() - connectedAt >= stable) this.#attempt = 0;
      this.#scheduleRetry(
        failure ??
          new DebusineError(
            'network',
            connectedAt === undefined
              ? 'Cannot connect to the notification service'
              : 'The connection to the notification service was lost',
          ),
      );
    });
  }

  /** Without a resume point, start from the server's clock when first connected. */
  #initialPoint(serverDate: string | undefined): void {
    if (this.#point) return;
    const date = serverDate ? Date.parse(serverDate) : Number.NaN;
    // The Date header has whole seconds: step one back so nothing at the edge is missed.
    const start = new Date((Number.isNaN(date) ? Date.now() : date) - 1_000).toISOString();
    const point = { lastCompletedAt: start, idsAtLast: [] };
    this.#point = point;
    // In the queue, so that stop() waits for the write too: nothing is written after it.
    this.#queue = this.#queue.then(() => this.#options.resume?.save(point)).catch(() => undefined);
  }

  #received(
    message: { work_request_id: number; completed_at: string; result: string },
    receivedAt: number,
  ): void {
    const key = completionKey(message.work_request_id, message.completed_at);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const event: CompletionEvent = {
      workRequestId: message.work_request_id,
      completedAt: message.completed_at,
      result: message.result,
      receivedAt,
    };
    const waiting = this.#pending.get(event.workRequestId);
    if (waiting) {
      // The same work request again (retried, or resent): its latest completion counts.
      if (compareTimestamps(event.completedAt, waiting.completedAt) > 0) {
        this.#pending.set(event.workRequestId, event);
      }
      return;
    }
    if (this.#pending.size >= MAX_PENDING) {
      // The server sends faster than completions are handled: holding them all grew without
      // bound. Drop the waiting ones (their keys stay seen, so a resend is dropped too) and
      // let the router read what it watches, once, as after an outage.
      const dropped = this.#pending.size + 1;
      this.#pending.clear();
      this.emit('overflow', dropped);
      return;
    }
    this.#pending.set(event.workRequestId, event);
    this.emit('received', event);
    if (!this.#draining) {
      this.#draining = true;
      this.#queue = this.#queue.then(() => this.#drain());
    }
  }

  /** Number of completions waiting for their turn (for diagnostics and tests). */
  get pending(): number {
    return this.#pending.size;
  }

  /** Handles the waiting completions one at a time, until none waits or the watcher stops. */
  async #drain(): Promise<void> {
    try {
      for (;;) {
        const next = this.#pending.values().next();
        if (next.done) return;
        const event = next.value;
        this.#pending.delete(event.workRequestId);
        if (!this.#running) {
          // Stopped meanwhile: forget them, so that the replay after the next start is taken.
          this.#seen.delete(completionKey(event.workRequestId, event.completedAt));
          for (const left of this.#pending.values()) {
            this.#seen.delete(completionKey(left.workRequestId, left.completedAt));
          }
          this.#pending.clear();
          return;
        }
        await this.#handle(event);
      }
    } finally {
      this.#draining = false;
    }
  }

  async #handle(event: CompletionEvent): Promise<void> {
    try {
      this.emit('completed', event);
      try {
        await this.#options.onCompletion?.(event);
      } catch (error) {
        reportProblem(
          this,
          error instanceof DebusineError
            ? error
            : new DebusineError('internal', 'A completion handler failed', {}, error),
        );
      }
      await this.#advance(event);
    } catch (error) {
      // Whatever went wrong with this one, the queue goes on with the next.
      reportProblem(
        this,
        new DebusineError('internal', 'A completion could not be handled', {}, error),
      );
    }
  }

  async #advance(event: CompletionEvent): Promise<void> {
    let point = this.#point;
    const order = point ? compareTimestamps(event.completedAt, point.lastCompletedAt) : 1;
    if (order > 0 || !point) {
      point = { lastCompletedAt: event.completedAt, idsAtLast: [event.workRequestId] };
      this.#point = point;
    } else if (order === 0) {
      point.idsAtLast.push(event.workRequestId);
    } else {
      return;
    }
    await this.#options.resume?.save(point).catch((error: unknown) => {
      reportProblem(this, new DebusineError('internal', 'Cannot save the resume point', {}, error));
    });
  }

  #startHeartbeat(socket: WebSocket, isAlive: () => boolean, setAlive: (v: boolean) => void): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = setInterval(() => {
      if (!isAlive()) {
        socket.terminate();
        return;
      }
      setAlive(false);
      socket.ping();
    }, this.#options.heartbeatMs ?? 30_000);
    this.#heartbeat.unref();
  }

  #scheduleRetry(error: DebusineError): void {
    if (!this.#running || !this.#online) return;
    clearTimeout(this.#retryTimer);
    const initial = this.#options.initialBackoffMs ?? 1_000;
    const max = this.#options.maxBackoffMs ?? 60_000;
    const ceiling = Math.min(max, initial * 2 ** this.#attempt);
    // Equal jitter: at least half the ceiling, so clients spread out but never hammer.
    const delay = ceiling / 2 + (this.#options.random ?? Math.random)() * (ceiling / 2);
    this.#attempt++;
    this.#setState({
      state: 'reconnecting',
      attempt: this.#attempt,
      nextAttemptAt: Date.now() + delay,
      error: serializeError(error),
    });
    this.#retryTimer = setTimeout(() => {
      this.#connect();
    }, delay);
  }

  #signOut(error: DebusineError): void {
    this.#running = false;
    clearTimeout(this.#retryTimer);
    this.#setState({ state: 'signed-out', error: serializeError(error) });
  }

  #stopWith(error: DebusineError): void {
    this.#running = false;
    clearTimeout(this.#retryTimer);
    this.#setState({ state: 'stopped', error: serializeError(error) });
  }

  #closeSocket(): void {
    clearInterval(this.#heartbeat);
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.removeAllListeners('close');
    socket?.on('error', () => undefined);
    socket?.terminate();
  }
}

/**
 * The http(s) origin of a socket or API address: a socket at `ws://h:p` is reached on the
 * same host and port as `http://h:p`, so it is the token of that origin that may go there.
 */
function httpOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'ws:') parsed.protocol = 'http:';
  else if (parsed.protocol === 'wss:') parsed.protocol = 'https:';
  return parsed.origin;
}
