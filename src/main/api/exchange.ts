/**
 * One request and its answer, for every JSON operation: the status must be one the
 * operation expects, then the body must be JSON that fits the operation's schema. Every
 * operation of DebusineClient goes through ApiContext.request (revision.ts), which adds
 * the one rule that needs the server's revision; the revision's own detection, and the
 * transfers given a bare transport, call this directly.
 */
import type { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import {
  holdsMoreValues,
  JSON_BODY_LIMIT,
  readTextUpTo,
  tooLargeError,
  tooManyValuesError,
} from './body-limits';
import type { HttpTransport, Parsed, RawResponse, RequestSpec } from './http';
import { errorFromResponse, parseResponse } from './http-errors';

/** Turns an answer with an unexpected status into the error the caller gets. */
export type Refusal = (operation: string, response: RawResponse) => Promise<DebusineError>;

/** What readJson gives for a body of nothing but white space. */
const EMPTY = Symbol('empty body');

function notJson(operation: string, response: RawResponse): DebusineError {
  return new DebusineError('bad-response', `${operation}: the server's answer is not JSON`, {
    operation,
    status: response.status,
  });
}

/**
 * Sends `spec` and reads its answer. Without a schema, the body is ignored. An empty body
 * is an answer only where the schema accepts `undefined` (an operation whose server may
 * answer 204 or nothing); elsewhere it is not JSON, as any other non-JSON body. A body
 * longer than JSON_BODY_LIMIT is refused as soon as that is known, unread past the limit.
 */
export async function exchange<S extends z.ZodType | undefined = undefined>(
  http: HttpTransport,
  spec: RequestSpec<S>,
  refusal: Refusal = errorFromResponse,
): Promise<Parsed<S>> {
  const response = await http.send(spec);
  const expect = spec.expect ?? [200];
  if (!expect.includes(response.status)) throw await refusal(spec.operation, response);
  if (spec.schema === undefined) {
    await response.body.dump();
    return undefined as Parsed<S>;
  }
  const json = await readJson(spec.operation, response);
  if (json === EMPTY) {
    const empty = spec.schema.safeParse(undefined);
    if (empty.success) return empty.data as Parsed<S>;
    throw notJson(spec.operation, response);
  }
  return parseResponse(spec.operation, spec.schema, json) as Parsed<S>;
}

/**
 * The body, parsed as JSON. The text is this function's own, so that it can be collected
 * once parsed, while the caller checks the parsed value against its schema: the text of the
 * largest answers (an artifact with many files) is up to JSON_BODY_LIMIT.
 */
async function readJson(operation: string, response: RawResponse): Promise<unknown> {
  const text = await readTextUpTo(response, JSON_BODY_LIMIT);
  if (text === undefined) throw tooLargeError(operation, response);
  if (text.trim() === '') return EMPTY;
  if (holdsMoreValues(text)) throw tooManyValuesError(operation, response);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw notJson(operation, response);
  }
}
