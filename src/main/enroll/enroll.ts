/**
 * Token enrollment, as `debusine setup` does it: POST an EnrollPayload to
 * `{apiUrl}/enroll/` (outside `/1.0`, no Token header), show the challenge and open the
 * server's confirmation page, then wait on the same response until the user confirms or
 * cancels there. The server keeps that response open for minutes (0.16 writes "\n" every
 * 10 s, 0.11 writes nothing), so the time-outs here are long, and the wait can be
 * cancelled from the app with an AbortSignal.
 */
import { hostname as osHostname } from 'node:os';
import type { Dispatcher } from 'undici';
import { DebusineError } from '../../shared/errors';
import {
  enrollConfirmPayloadSchema,
  enrollPayloadSchema,
  type EnrollPayload,
} from '../../shared/models';
import { JSON_BODY_LIMIT, readTextUpTo, tooLargeError } from '../api/body-limits';
import { HttpTransport } from '../api/http';
import { errorFromResponse, networkError } from '../api/http-errors';
import {
  CHALLENGE_PATTERN,
  ENROLLED_TOKEN_PATTERN,
  makeChallenge,
  makeNonce,
  NONCE_PATTERN,
} from './challenge';

/** What the UI shows while waiting: the challenge to compare, and the page to open. */
export interface EnrollmentStarted {
  nonce: string;
  challenge: string;
  confirmUrl: string;
  hostname: string;
  scope: string;
}

export interface RequestTokenOptions {
  apiUrl: string;
  scope: string;
  /** Shown on the confirmation page and in the token's comment. Default: os.hostname(). */
  hostname?: string;
  /** Opens the confirmation page in the system browser (Electron's shell.openExternal). */
  openExternal: (url: string) => void | Promise<void>;
  /** Called once the server has registered the request: show the challenge now. */
  onStarted?: (started: EnrollmentStarted) => void;
  /** Cancels the wait from the app side; the promise then rejects with `cancelled`. */
  signal?: AbortSignal;
  /** How long to wait for the user's decision. Default: 30 minutes. */
  timeoutMs?: number;
  /** For tests: the undici dispatcher. */
  dispatcher?: Dispatcher;
}

/** The enrolled token stays in main: callers store it and pass on only the outcome. */
export type TokenRequestResult = { outcome: 'confirm'; token: string } | { outcome: 'cancel' };

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** Open the page once headers arrive, or after this long if a proxy holds them back. */
const OPEN_PAGE_FALLBACK_MS = 2_000;

/** `{site}/-/enroll/confirm/{nonce}`: the site is the API URL without its last `api`. */
export function confirmUrlFor(siteUrl: string, nonce: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/-/enroll/confirm/${nonce}`;
}

export function makeEnrollPayload(scope: string, hostname: string): EnrollPayload {
  const payload = enrollPayloadSchema.parse({
    nonce: makeNonce(),
    challenge: makeChallenge(),
    scope,
    hostname,
  });
  if (!NONCE_PATTERN.test(payload.nonce) || !CHALLENGE_PATTERN.test(payload.challenge)) {
    throw new DebusineError(
      'internal',
      'Generated an enrollment nonce or challenge the server would refuse',
    );
  }
  return payload;
}

/** Parses the body: any number of keepalive newlines, then one EnrollConfirmPayload. */
export function parseEnrollAnswer(body: string): TokenRequestResult {
  const text = body.trim();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DebusineError(
      text === '' ? 'network' : 'bad-response',
      text === ''
        ? 'The server closed the enrollment request without an answer; try again'
        : "The server's enrollment answer is not JSON",
      { operation: 'enroll' },
    );
  }
  const parsed = enrollConfirmPayloadSchema.safeParse(json);
  if (!parsed.success) {
    throw new DebusineError(
      'bad-response',
      "The server's enrollment answer has an unexpected shape",
      {
        operation: 'enroll',
      },
    );
  }
  if (parsed.data.outcome === 'cancel') return { outcome: 'cancel' };
  const token = parsed.data.token;
  if (token === null || !ENROLLED_TOKEN_PATTERN.test(token)) {
    // The value is not repeated: it may be a token after all.
    throw new DebusineError('bad-response', 'The server confirmed, but sent no valid token', {
      operation: 'enroll',
    });
  }
  return { outcome: 'confirm', token };
}

/** Runs one enrollment and returns the outcome (with the token on `confirm`). */
export async function requestToken(options: RequestTokenOptions): Promise<TokenRequestResult> {
  const hostname = options.hostname ?? osHostname();
  const payload = makeEnrollPayload(options.scope, hostname);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // No token and no scope header: the request is anonymous by design.
  const http = new HttpTransport({
    apiUrl: options.apiUrl,
    retries: 0,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timeout.abort();
  }, timeoutMs);
  const signal = options.signal
    ? AbortSignal.any([options.signal, timeout.signal])
    : timeout.signal;
  const started: EnrollmentStarted = {
    nonce: payload.nonce,
    challenge: payload.challenge,
    confirmUrl: confirmUrlFor(http.siteUrl, payload.nonce),
    hostname,
    scope: options.scope,
  };
  let shown = false;
  const show = async (): Promise<void> => {
    if (shown || signal.aborted) return;
    shown = true;
    options.onStarted?.(started);
    await options.openExternal(started.confirmUrl);
  };
  const fallback = setTimeout(() => void show().catch(() => undefined), OPEN_PAGE_FALLBACK_MS);
  const url = http.url('/enroll/', { unversioned: true });
  try {
    const response = await http.send({
      operation: 'enroll',
      method: 'POST',
      path: '/enroll/',
      unversioned: true,
      body: payload,
      idempotent: false,
      signal,
      readTimeoutMs: timeoutMs,
    });
    clearTimeout(fallback);
    if (response.status !== 200) throw await errorFromResponse('enroll', response);
    await show();
    const body = await readTextUpTo(response, JSON_BODY_LIMIT);
    if (body === undefined) throw tooLargeError('enroll', response);
    return parseEnrollAnswer(body);
  } catch (error) {
    if (timeout.signal.aborted && !options.signal?.aborted) {
      throw new DebusineError(
        'timeout',
        `Nobody confirmed the enrollment within ${String(Math.round(timeoutMs / 60_000))} minutes`,
        { operation: 'enroll' },
      );
    }
    if (options.signal?.aborted) {
      throw new DebusineError('cancelled', 'The enrollment was cancelled', { operation: 'enroll' });
    }
    throw networkError('enroll', url, error);
  } finally {
    clearTimeout(fallback);
    clearTimeout(timer);
    await http.close();
  }
}
