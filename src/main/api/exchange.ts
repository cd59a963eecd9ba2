/**
 * One request and its answer, for every JSON operation: the status must be one the
 * operation expects, then the body must be JSON that fits the operation's schema. Every
 * operation of DebusineClient goes through ApiContext.request (revision.ts), which adds
 * the one rule that needs the server's revision; the revision's own detection, and the
 * transfers given a bare transport, call this directly.
 */
import type { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import type { HttpTransport, Parsed, RawResponse, RequestSpec } from './http';
import { errorFromResponse, parseResponse } from './http-errors';

/** Turns an answer with an unexpected status into the error the caller gets. */
export type Refusal = (operation: string, response: RawResponse) => Promise<DebusineError>;

/**
 * Sends `spec` and reads its answer. Without a schema, the body is ignored. An empty body
 * is an answer only where the schema accepts `undefined` (an operation whose server may
 * answer 204 or nothing); elsewhere it is not JSON, as any other non-JSON body.
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
  const text = await response.body.text();
  if (text.trim() === '') {
    const empty = spec.schema.safeParse(undefined);
    if (empty.success) return empty.data as Parsed<S>;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DebusineError('bad-response', `${spec.operation}: the server's answer is not JSON`, {
      operation: spec.operation,
      status: response.status,
    });
  }
  return parseResponse(spec.operation, spec.schema, json) as Parsed<S>;
}
