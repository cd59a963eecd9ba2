/**
 * How much of an answer's body the app reads before it gives up on it. A body is read into
 * memory whole before it is parsed, so without a bound a server (or anything between it and
 * the app) could make the app hold and parse as much as it cares to send: the 334 MiB
 * record of an artifact listing a million files was read whole, taking 1.8 GB.
 *
 * The read stops at the bound: a Content-Length past it is refused before any of the body
 * is read, and a body that grows past it is dropped (its connection closed) with the chunk
 * that crosses the bound, so that no more than the bound is ever held.
 */
import { DebusineError } from '../../shared/errors';
import type { RawResponse } from './http';

/**
 * Every JSON answer. The largest the interface sends is an artifact record, about 350
 * bytes a file (path, size, SHA-256, URL, content type): a source package is a handful of
 * files, and the largest real artifacts a few thousand, about 1 MiB. 16 MiB holds the most
 * files an artifact may list (MAX_ARTIFACT_FILES, in models.ts) with paths of 80
 * characters. It is no larger because an answer costs about seven times its size in memory
 * at the peak of its reading and parsing (the bytes as they arrive, the same bytes in one
 * piece, the text, the parsed objects): about 115 MB for a record of 16 MiB.
 */
export const JSON_BODY_LIMIT = 16 * 2 ** 20;

/**
 * Values (objects, arrays, and the members and items in them) one JSON answer may hold. The
 * bytes alone do not bound what parsing takes: 16 MiB of `[{},{},…]` is 5.6 million objects,
 * half a gigabyte once parsed. The largest record accepted (MAX_ARTIFACT_FILES files, about
 * nine values each) holds about 360,000; a million parsed empty objects take about 60 MB.
 */
export const JSON_VALUE_LIMIT = 1_000_000;

/**
 * Whether `text` holds more than `limit` values, counted before it is parsed: every `{`,
 * `[` and `,` outside a string (one pass over the text, no allocation).
 */
export function holdsMoreValues(text: string, limit = JSON_VALUE_LIMIT): boolean {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x2c || c === 0x5b || c === 0x7b) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/** The error for a JSON answer of more than JSON_VALUE_LIMIT values, naming the operation. */
export function tooManyValuesError(operation: string, response: RawResponse): DebusineError {
  return new DebusineError(
    'bad-response',
    `The server's answer to ${operation} holds more than ${JSON_VALUE_LIMIT.toLocaleString('en')} values`,
    { operation, status: response.status, limit: JSON_VALUE_LIMIT },
  );
}

/**
 * The body of a refusal: problem+json is a title, a detail and per-field messages, a few
 * hundred bytes; Django's HTML error pages are a few KiB. Only the first 64 KiB is looked at.
 */
export const ERROR_BODY_LIMIT = 64 * 2 ** 10;

/** `64 MiB`, `64 KiB`, or a count of bytes. */
export function formatLimit(bytes: number): string {
  if (bytes % 2 ** 20 === 0) return `${String(bytes / 2 ** 20)} MiB`;
  if (bytes % 2 ** 10 === 0) return `${String(bytes / 2 ** 10)} KiB`;
  return `${String(bytes)} bytes`;
}

/** The error for a JSON answer longer than JSON_BODY_LIMIT, naming the operation. */
export function tooLargeError(operation: string, response: RawResponse): DebusineError {
  return new DebusineError(
    'bad-response',
    `The server's answer to ${operation} is larger than ${formatLimit(JSON_BODY_LIMIT)}`,
    { operation, status: response.status, limit: JSON_BODY_LIMIT },
  );
}

function declaredLength(response: RawResponse): number | undefined {
  const raw = response.headers['content-length'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

/**
 * The body as UTF-8 text (a leading byte-order mark dropped, as undici's `text()` does), or
 * undefined once it is known to be longer than `limit` bytes: then the body is destroyed,
 * which closes its connection rather than reading the rest of it.
 */
export async function readTextUpTo(
  response: RawResponse,
  limit: number,
): Promise<string | undefined> {
  const { body } = response;
  if ((declaredLength(response) ?? 0) > limit) {
    body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limit) {
      // Leaving the loop early destroys the stream too; saying so keeps it obvious.
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  const whole = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, length);
  chunks.length = 0;
  return new TextDecoder('utf-8').decode(whole);
}
