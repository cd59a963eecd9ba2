/**
 * The HTTP layer under DebusineClient: one keep-alive pool per server, the `Token` and
 * `X-Debusine-Scope` headers, the `1.0` path segment, time-outs and retries for idempotent
 * requests. Reading an answer (its status, its JSON) is exchange.ts; turning a refusal
 * into a DebusineError is http-errors.ts.
 *
 * The token is only ever put in a request header: it never appears in an error message,
 * an error's details, or a log line. It is bound to one origin (scheme, host and port),
 * the one it was issued for: every header set that carries it is built for a target URL,
 * and a target on any other origin is refused before a connection is opened, whoever
 * asks (a changed profile, a server-given absolute URL, a redirect).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { urlText } from '../../shared/url-text';
import { networkError } from './http-errors';
import {
  floorText,
  meteredBody,
  RATE_FLOOR,
  type RateFloor,
  type ResponseBody,
} from './rate-floor';
import { APP_NAME, APP_VERSION } from '../version';

export const API_VERSION = '1.0';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface HttpOptions {
  /** API root, e.g. `https://debusine.debian.net/api` (a trailing slash is fine). */
  apiUrl: string;
  token?: string | undefined;
  /**
   * The origin the token was issued for, and the only one it is sent to. Default: the API
   * URL's. Callers that read the token from the token store pass the origin stored with
   * it, so that a token kept for a server whose address has since changed is refused.
   */
  tokenOrigin?: string | undefined;
  scope?: string | undefined;
  /** undici dispatcher: a MockAgent in tests, or a shared Agent. */
  dispatcher?: Dispatcher;
  connectTimeoutMs?: number;
  /** Time allowed for the response headers, and between body chunks. */
  readTimeoutMs?: number;
  /** Retries for idempotent requests on network errors and 502/503/504. */
  retries?: number;
  /** Base of the exponential backoff, in ms (tests use a small one). */
  retryBaseMs?: number;
  userAgent?: string;
  /** The slowest a body may arrive before it is stopped (rate-floor.ts); tests lower it. */
  rateFloor?: RateFloor;
}

export interface RequestSpec<S extends z.ZodType | undefined> {
  /** The operation's name, used in error messages (`workRequestCreate`). */
  operation: string;
  method: HttpMethod;
  /** A path under `{apiUrl}/1.0` (e.g. `/work-request/1/`), or an absolute URL. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Statuses that count as success. Default: [200]. */
  expect?: readonly number[];
  /** Schema for the response body; without one, the body is ignored. */
  schema?: S;
  /** Whether a retry is safe; default: GET, HEAD, PUT and DELETE are. */
  idempotent?: boolean;
  /** Outside `/1.0` (enrollment lives at `{apiUrl}/enroll/`). */
  unversioned?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Per-request read time-out (enrollment waits for minutes). */
  readTimeoutMs?: number;
}

export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Safe to drop at any point (streams.ts), and stopped when slower than the rate floor. */
  body: ResponseBody;
}

const RETRY_STATUSES = new Set([502, 503, 504]);

export function normaliseApiUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new DebusineError(
      'validation',
      `Not a valid API URL: ${JSON.stringify(urlText(apiUrl))}`,
      {
        field: 'apiUrl',
      },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DebusineError('validation', `The API URL must start with http:// or https://`, {
      field: 'apiUrl',
    });
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

export class HttpTransport {
  readonly apiUrl: string;
  readonly scope: string | undefined;
  readonly #token: string | undefined;
  readonly #tokenOrigin: string;
  readonly #dispatcher: Dispatcher;
  /** Where requests that must not be sent twice go: a new connection each. */
  readonly #onceDispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #retries: number;
  readonly #retryBaseMs: number;
  readonly #readTimeoutMs: number;
  readonly #userAgent: string;
  readonly rateFloor: RateFloor;

  constructor(options: HttpOptions) {
    this.rateFloor = options.rateFloor ?? RATE_FLOOR;
    this.apiUrl = normaliseApiUrl(options.apiUrl);
    this.scope = options.scope;
    this.#token = options.token;
    this.#tokenOrigin = new URL(options.tokenOrigin ?? this.apiUrl).origin;
    this.#retries = options.retries ?? 3;
    this.#retryBaseMs = options.retryBaseMs ?? 250;
    this.#readTimeoutMs = options.readTimeoutMs ?? 30_000;
    this.#userAgent = options.userAgent ?? `${APP_NAME}/${APP_VERSION}`;
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
      this.#onceDispatcher = options.dispatcher;
      this.#ownsDispatcher = false;
    } else {
      const connect = { timeout: options.connectTimeoutMs ?? 10_000 };
      this.#dispatcher = new Agent({
        connect,
        // Idle sockets are let go before most servers would drop them (uvicorn alone after
        // 5 s); a request that still meets a dropped one is retried if it may be.
        keepAliveTimeout: 4_000,
        connections: 16,
      });
      // A server drops an idle kept-alive connection when its own keep-alive time ends
      // (Debusine's gunicorn with uvicorn workers after 2 s) without a Keep-Alive header to
      // say when; a request written just then is never read, and one that may not be sent
      // twice cannot be retried. Such requests therefore go on a connection opened for
      // them and closed after their answer (`pipelining: 0`), which nothing can have
      // dropped beforehand.
      this.#onceDispatcher = new Agent({ connect, pipelining: 0, connections: 16 });
      this.#ownsDispatcher = true;
    }
  }

  get hasToken(): boolean {
    return this.#token !== undefined && this.#token !== '';
  }

  /** The server's site root: the API URL without its last `api` component. */
  get siteUrl(): string {
    const url = new URL(this.apiUrl);
    url.pathname = url.pathname.replace(/\/api\/?$/, '') || '/';
    return url.toString().replace(/\/+$/, '');
  }

  /**
   * Headers for a request to `target`; the token never leaves this object otherwise. With
   * a token, a target outside the token's origin is refused with an `auth` error.
   */
  authHeaders(target: string | URL): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent };
    if (this.#token) {
      this.#checkTarget(target);
      headers.token = this.#token;
    }
    if (this.scope) headers['x-debusine-scope'] = this.scope;
    return headers;
  }

  #checkTarget(target: string | URL): void {
    const origin = new URL(target).origin;
    if (origin === this.#tokenOrigin) return;
    throw new DebusineError(
      'auth',
      `The token of this server was issued for ${this.#tokenOrigin}; it is never sent to ` +
        `${origin}. Sign in again to this server.`,
      { tokenOrigin: this.#tokenOrigin, target: origin },
    );
  }

  get dispatcher(): Dispatcher {
    return this.#dispatcher;
  }

  url(path: string, spec?: { query?: RequestSpec<undefined>['query']; unversioned?: boolean }) {
    const base = spec?.unversioned ? this.apiUrl : `${this.apiUrl}/${API_VERSION}`;
    const url = new URL(/^https?:\/\//.test(path) ? path : base + path);
    for (const [key, value] of Object.entries(spec?.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Sends a request with retries, and returns the raw response whatever its status. */
  async send(spec: Omit<RequestSpec<z.ZodType | undefined>, 'schema'>): Promise<RawResponse> {
    const idempotent = spec.idempotent ?? ['GET', 'HEAD', 'PUT', 'DELETE'].includes(spec.method);
    const url = this.url(spec.path, spec);
    const headers: Record<string, string> = { ...this.authHeaders(url), ...spec.headers };
    let sent: string | undefined;
    if (spec.body !== undefined) {
      sent = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const dispatcher = idempotent ? this.#dispatcher : this.#onceDispatcher;
        const response = await dispatcher.request({
          origin: new URL(url).origin,
          path: new URL(url).pathname + new URL(url).search,
          method: spec.method,
          headers,
          body: sent,
          signal: spec.signal,
          headersTimeout: spec.readTimeoutMs ?? this.#readTimeoutMs,
          bodyTimeout: spec.readTimeoutMs ?? this.#readTimeoutMs,
        });
        const body = meteredBody(response.body, this.rateFloor, (received) =>
          this.#tooSlow(spec.operation, received),
        );
        if (idempotent && attempt < this.#retries && RETRY_STATUSES.has(response.statusCode)) {
          await body.dump();
          await this.#backoff(attempt, spec.signal);
          continue;
        }
        return { status: response.statusCode, headers: response.headers, body };
      } catch (error) {
        const mapped = networkError(spec.operation, url, error);
        const retryable = mapped.code === 'network' || mapped.code === 'timeout';
        if (idempotent && retryable && attempt < this.#retries) {
          await this.#backoff(attempt, spec.signal);
          continue;
        }
        throw mapped;
      }
    }
  }

  #tooSlow(operation: string, received: number): DebusineError {
    return new DebusineError(
      'timeout',
      `The server's answer to ${operation} was stopped: it arrived slower than ${floorText(this.rateFloor)} (${String(received)} bytes had arrived)`,
      { operation, received, rule: 'answer-rate' },
    );
  }

  async #backoff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
    // Full jitter: a random wait up to an exponentially growing ceiling.
    const ceiling = this.#retryBaseMs * 2 ** attempt;
    await sleep(Math.random() * ceiling + this.#retryBaseMs / 2, undefined, { signal });
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) {
      await Promise.all([this.#dispatcher.close(), this.#onceDispatcher.close()]);
    }
  }
}
