/**
 * The HTTP layer under DebusineClient: one keep-alive pool per server, the `Token` and
 * `X-Debusine-Scope` headers, the `1.0` path segment, time-outs, retries for idempotent
 * requests, and problem+json errors turned into DebusineError codes.
 *
 * The token is only ever put in a request header: it never appears in an error message,
 * an error's details, or a log line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { DebusineError, type ErrorCode, type ErrorDetails } from '../../shared/errors';
import { APP_NAME, APP_VERSION } from '../version';

export const API_VERSION = '1.0';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface HttpOptions {
  /** API root, e.g. `https://debusine.debian.net/api` (a trailing slash is fine). */
  apiUrl: string;
  token?: string | undefined;
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
  body: Dispatcher.ResponseData['body'];
}

const RETRY_STATUSES = new Set([502, 503, 504]);

export function normaliseApiUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new DebusineError('validation', `Not a valid API URL: ${JSON.stringify(apiUrl)}`, {
      field: 'apiUrl',
    });
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
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #retries: number;
  readonly #retryBaseMs: number;
  readonly #readTimeoutMs: number;
  readonly #userAgent: string;

  constructor(options: HttpOptions) {
    this.apiUrl = normaliseApiUrl(options.apiUrl);
    this.scope = options.scope;
    this.#token = options.token;
    this.#retries = options.retries ?? 3;
    this.#retryBaseMs = options.retryBaseMs ?? 250;
    this.#readTimeoutMs = options.readTimeoutMs ?? 30_000;
    this.#userAgent = options.userAgent ?? `${APP_NAME}/${APP_VERSION}`;
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
      this.#ownsDispatcher = false;
    } else {
      this.#dispatcher = new Agent({
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        // Debusine's ASGI servers (uvicorn) drop idle connections after 5 s without saying
        // so in a Keep-Alive header; reusing one after that fails a POST that cannot be
        // retried. Idle sockets are therefore let go sooner than the server would.
        keepAliveTimeout: 4_000,
        connections: 16,
      });
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

  /** Headers for any request to this server; the token never leaves this object otherwise. */
  authHeaders(): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent };
    if (this.#token) headers.token = this.#token;
    if (this.scope) headers['x-debusine-scope'] = this.scope;
    return headers;
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

  async request<S extends z.ZodType | undefined = undefined>(
    spec: RequestSpec<S>,
  ): Promise<Parsed<S>> {
    const response = await this.send(spec);
    const expect = spec.expect ?? [200];
    if (!expect.includes(response.status)) {
      throw await errorFromResponse(spec.operation, response);
    }
    if (spec.schema === undefined) {
      await response.body.dump();
      return undefined as Parsed<S>;
    }
    const text = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new DebusineError(
        'bad-response',
        `${spec.operation}: the server's answer is not JSON`,
        {
          operation: spec.operation,
          status: response.status,
        },
      );
    }
    return parseResponse(spec.operation, spec.schema, json) as Parsed<S>;
  }

  /** Sends a request with retries, and returns the raw response whatever its status. */
  async send(spec: Omit<RequestSpec<z.ZodType | undefined>, 'schema'>): Promise<RawResponse> {
    const idempotent = spec.idempotent ?? ['GET', 'HEAD', 'PUT', 'DELETE'].includes(spec.method);
    const url = this.url(spec.path, spec);
    const headers: Record<string, string> = { ...this.authHeaders(), ...spec.headers };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.#dispatcher.request({
          origin: new URL(url).origin,
          path: new URL(url).pathname + new URL(url).search,
          method: spec.method,
          headers,
          body,
          signal: spec.signal,
          headersTimeout: spec.readTimeoutMs ?? this.#readTimeoutMs,
          bodyTimeout: spec.readTimeoutMs ?? this.#readTimeoutMs,
        });
        if (idempotent && attempt < this.#retries && RETRY_STATUSES.has(response.statusCode)) {
          await response.body.dump();
          await this.#backoff(attempt, spec.signal);
          continue;
        }
        return { status: response.statusCode, headers: response.headers, body: response.body };
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

  async #backoff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
    // Full jitter: a random wait up to an exponentially growing ceiling.
    const ceiling = this.#retryBaseMs * 2 ** attempt;
    await sleep(Math.random() * ceiling + this.#retryBaseMs / 2, undefined, { signal });
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}

// ---------------------------------------------------------------------------------------
// Errors

function headerValue(headers: RawResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';

function codeForStatus(status: number, detail: unknown): ErrorCode {
  if (status === 400) return 'validation';
  if (status === 401) return 'auth';
  if (status === 403) return detail === NOT_AUTHENTICATED ? 'auth' : 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 405) return 'unsupported';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'server';
  return 'server';
}

function describeDetail(detail: unknown): string | undefined {
  if (detail === undefined || detail === null || detail === '') return undefined;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((d) => describeDetail(d)).join('; ');
  if (typeof detail === 'object') {
    return Object.entries(detail)
      .map(([key, value]) => `${key}: ${describeDetail(value) ?? ''}`)
      .join('; ');
  }
  return typeof detail === 'number' || typeof detail === 'boolean' ? String(detail) : undefined;
}

function toValidationErrors(value: unknown): Record<string, string[]> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    out[field] = Array.isArray(messages)
      ? messages.map((m) => describeDetail(m) ?? '')
      : [describeDetail(messages) ?? ''];
  }
  return out;
}

/** Builds the error for an unexpected status: problem+json when the server sent one. */
export async function errorFromResponse(
  operation: string,
  response: RawResponse,
): Promise<DebusineError> {
  const contentType = headerValue(response.headers, 'content-type') ?? '';
  const text = await response.body.text().catch(() => '');
  const details: ErrorDetails = { operation, status: response.status };
  if (contentType.startsWith('application/problem+json')) {
    let problem: unknown;
    try {
      problem = JSON.parse(text);
    } catch {
      problem = undefined;
    }
    if (typeof problem === 'object' && problem !== null) {
      const p = problem as { title?: unknown; detail?: unknown; validation_errors?: unknown };
      const title = typeof p.title === 'string' ? p.title : 'Error';
      details.title = title;
      if (p.detail !== undefined) details.detail = p.detail;
      const validationErrors = toValidationErrors(p.validation_errors);
      if (validationErrors) details.validationErrors = validationErrors;
      const code = codeForStatus(response.status, p.detail);
      const explanation = describeDetail(p.detail);
      let message = title === 'Error' && explanation ? explanation : title;
      if (title !== 'Error' && explanation && explanation !== title) {
        message = `${title}: ${explanation}`;
      }
      if (message === 'Error') {
        // 0.11 answers some refusals with a bare {"title": "Error"}: say at least what failed.
        message = `${operation} was refused by the server (HTTP ${String(response.status)})`;
      }
      if (validationErrors && !explanation) {
        message += ` (${Object.entries(validationErrors)
          .map(([f, m]) => `${f}: ${m.join(', ')}`)
          .join('; ')})`;
      }
      if (code === 'auth') {
        message = `${message} Sign in again: the server treats this connection as anonymous.`;
      }
      return new DebusineError(code, message, details);
    }
  }
  // Not problem+json: Django's HTML pages (unknown URL, unknown scope, middleware 403s).
  const code = codeForStatus(response.status, undefined);
  const messages: Partial<Record<ErrorCode, string>> = {
    'not-found': `${operation}: not found (HTTP 404). Check the server URL and scope.`,
    forbidden: `${operation}: the server refused access (HTTP 403). The token may be invalid or disabled.`,
    unsupported: `${operation}: the server does not allow this method (HTTP 405).`,
  };
  return new DebusineError(
    code,
    messages[code] ?? `${operation}: unexpected answer from the server (HTTP ${response.status})`,
    details,
  );
}

function errorCauseCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function networkError(operation: string, url: string, error: unknown): DebusineError {
  if (error instanceof DebusineError) return error;
  const origin = new URL(url).origin;
  const code = errorCauseCode(error);
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || code === 'ABORT_ERR' || code === 'UND_ERR_ABORTED') {
    return new DebusineError('cancelled', `${operation} was cancelled`, { operation });
  }
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ETIMEDOUT'
  ) {
    return new DebusineError('timeout', `${operation}: ${origin} did not answer in time`, {
      operation,
      server: origin,
    });
  }
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is the server running?)',
    ENOTFOUND: 'host name not found (check the server URL)',
    EAI_AGAIN: 'host name lookup failed (are you offline?)',
    ECONNRESET: 'the connection was reset',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable (are you offline?)',
    UND_ERR_SOCKET: 'the connection broke',
    UND_ERR_CLOSED: 'the connection was closed',
  };
  const reason = (code && reasons[code]) ?? (error instanceof Error ? error.message : 'failed');
  return new DebusineError('network', `${operation}: cannot reach ${origin}: ${reason}`, {
    operation,
    server: origin,
    ...(code ? { cause: code } : {}),
  });
}

export function parseResponse<S extends z.ZodType>(
  operation: string,
  schema: S,
  json: unknown,
): z.output<S> {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  throw new DebusineError(
    'bad-response',
    `${operation}: the server's answer does not fit${field ? ` at field '${field}'` : ''}: ${
      issue?.message ?? 'invalid'
    }`,
    { operation, field },
  );
}
