/**
 * Errors of the HTTP layer: a refusal (an unexpected status, with problem+json when the
 * server sent one) or a failure to reach the server, turned into DebusineError codes, and
 * an answer that does not fit its schema. The token never appears in any of them: they
 * are built from the status, the body and the server's origin only.
 */
import type { z } from 'zod';
import { DebusineError, type ErrorCode, type ErrorDetails } from '../../shared/errors';
import { ERROR_BODY_LIMIT, readTextUpTo } from './body-limits';
import type { RawResponse } from './http';

function headerValue(headers: RawResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What DRF says when a request came without credentials it accepts: the token was not taken. */
const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'validation',
  401: 'auth',
  404: 'not-found',
  405: 'unsupported',
  408: 'timeout',
  409: 'conflict',
  412: 'conflict',
  504: 'timeout',
};

/** The code of an unexpected status; any other (a 5xx, or a status no API view sends) is `server`. */
function codeForStatus(status: number, detail: unknown): ErrorCode {
  if (status === 403) return detail === NOT_AUTHENTICATED ? 'auth' : 'forbidden';
  return STATUS_CODES[status] ?? 'server';
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

/**
 * Builds the error for an unexpected status: problem+json when the server sent one. Only
 * ERROR_BODY_LIMIT of the body is read; a longer one is dropped unread and the error is the
 * status's own, as for a body that is not problem+json.
 */
export async function errorFromResponse(
  operation: string,
  response: RawResponse,
): Promise<DebusineError> {
  const contentType = headerValue(response.headers, 'content-type') ?? '';
  const text = (await readTextUpTo(response, ERROR_BODY_LIMIT).catch(() => undefined)) ?? '';
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

/**
 * Whether a refusal is Django's own 404 page rather than an API view's problem+json: what
 * a server answers for a URL it does not know, and for an unknown scope.
 */
export function isPageNotFound(error: DebusineError): boolean {
  return error.code === 'not-found' && error.details.title === undefined;
}

/** What a failed connection's code means, in the words a user can act on. */
export const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (is the server running?)',
  ENOTFOUND: 'host name not found (check the server URL)',
  EAI_AGAIN: 'host name lookup failed (are you offline?)',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable (are you offline?)',
  UND_ERR_SOCKET: 'the connection broke',
  UND_ERR_CLOSED: 'the connection was closed',
};

/** The code of an error or of its causes (undici wraps the socket's error in `cause`). */
export function errorCauseCode(error: unknown): string | undefined {
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
  const reason =
    (code && NETWORK_REASONS[code]) ?? (error instanceof Error ? error.message : 'failed');
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
