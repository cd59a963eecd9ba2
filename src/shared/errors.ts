/**
 * The closed set of error codes that cross the bridge, and the error class both sides use.
 * Errors travel as data ({code, message, details}); each side turns them back into a
 * DebusineError, so `instanceof` and `code` checks work in main and in the renderer alike.
 */
export const ERROR_CODES = [
  /** No usable credentials: no token, or the server treated the token as anonymous. */
  'auth',
  /** The server reported the token disabled (websocket reason_code TOKEN_DISABLED). */
  'token-disabled',
  /** Authenticated, but not allowed (HTTP 403 with credentials). */
  'forbidden',
  'not-found',
  /** Bad input, refused locally or by the server (HTTP 400, local file-set rules). */
  'validation',
  /** The object changed or already exists in a conflicting way (HTTP 409, 412). */
  'conflict',
  /** The server could not be reached, or the connection broke. */
  'network',
  'timeout',
  /** The server failed (HTTP 5xx) or answered with a status the operation does not expect. */
  'server',
  /** The server answered, but not in the shape the operation expects. */
  'bad-response',
  /** The server does not offer this operation (an older or newer release). */
  'unsupported',
  'cancelled',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** What is known about an error beyond its message. Everything here is serialisable. */
export interface ErrorDetails {
  /** The operation that failed, e.g. `workRequestCreate`. */
  operation?: string;
  /** HTTP status, when the server answered. */
  status?: number;
  /** problem+json `title`. */
  title?: string;
  /** problem+json `detail`: a string, a list or an object, as the server sent it. */
  detail?: unknown;
  /** problem+json `validation_errors`: field → messages. */
  validationErrors?: Record<string, string[]>;
  /** The field a validation error or a malformed response concerns (dotted path). */
  field?: string;
  /** The server's identity, for "not supported by this server" errors. */
  server?: string;
  /** A local file a local validation error concerns. */
  file?: string;
  /** The name of a local rule that failed. */
  rule?: string;
  [key: string]: unknown;
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

export class DebusineError extends Error {
  override readonly name = 'DebusineError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.details = details;
  }

  toJSON(): SerializedError {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromJSON(value: unknown): DebusineError {
    if (typeof value === 'object' && value !== null) {
      const { code, message, details } = value as Partial<SerializedError>;
      if (isErrorCode(code) && typeof message === 'string') {
        return new DebusineError(code, message, typeof details === 'object' ? details : {});
      }
    }
    return new DebusineError('internal', 'An error arrived in an unknown shape', {
      detail: value,
    });
  }
}

export function isDebusineError(value: unknown): value is DebusineError {
  return value instanceof DebusineError;
}

/** Turns anything thrown into the serialisable shape, without leaking stack traces. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof DebusineError) return error.toJSON();
  if (error instanceof Error) return { code: 'internal', message: error.message };
  return { code: 'internal', message: String(error) };
}
