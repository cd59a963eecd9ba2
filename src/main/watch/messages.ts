/**
 * The messages of the completion websocket (docs/debusine-server-facts.md), handled as the
 * Debusine client handles them: a text message carries a JSON object whose `text` member
 * selects the handler; a message that ran a handler yields true, an invalid or unknown one
 * false, and reason_code TOKEN_DISABLED raises the token-disabled error.
 */
import type WebSocket from 'ws';
import { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { knownResult } from '../../shared/results/end';

/**
 * `{"type":"websocket.send","text":"work_request_completed",...}` (no `links` on 0.16). Its
 * `result` is read as one of the results Debusine has, or `unknown` (knownResult): it is
 * shown in a notification's title and kept in the watch list, and the server's own string
 * could be anything, of any length.
 */
export const workRequestCompletedSchema = z.looseObject({
  text: z.literal('work_request_completed'),
  work_request_id: z.number().int(),
  completed_at: z.string().min(1),
  result: z.string().transform(knownResult),
});
export type WorkRequestCompletedMessage = z.infer<typeof workRequestCompletedSchema>;

export type MessageObject = Record<string, unknown> & { text?: unknown };
export type MessageHandler = (message: MessageObject) => void;

/** Handlers keyed by the `text` value they handle (`connected`, `work_request_completed`). */
export type MessageHandlers = Partial<Record<string, MessageHandler>>;

export const TOKEN_DISABLED = 'TOKEN_DISABLED';

/**
 * Dispatches one websocket message. `data` is the frame's payload, or anything else for
 * a non-text frame (which yields false).
 */
export function processMessage(data: unknown, handlers: MessageHandlers): boolean {
  if (typeof data !== 'string') return false;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return false;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const object = message as MessageObject;
  if (object.reason_code === TOKEN_DISABLED) {
    throw new DebusineError(
      'token-disabled',
      'The server disabled this token. Sign in again to keep receiving notifications.',
      {
        ...(typeof object.reason === 'string' ? { detail: redactReason(object.reason) } : {}),
      },
    );
  }
  if (typeof object.text !== 'string') return false;
  const handler = handlers[object.text];
  if (!handler) return false;
  handler(object);
  return true;
}

/** The server's reason may quote the token's hash; hashes are not secrets, but keep it short. */
function redactReason(reason: string): string {
  return reason.replace(/"[0-9a-f]{16,}"/g, '"…"');
}

/**
 * Orders two server timestamps (`2026-11-21T11:36:10.441960Z`, the fraction is left out
 * when zero) to the microsecond, which Date alone cannot.
 */
export function compareTimestamps(a: string, b: string): number {
  const ka = timestampKey(a);
  const kb = timestampKey(b);
  return ka.ms === kb.ms ? ka.micros - kb.micros : ka.ms - kb.ms;
}

/**
 * A server timestamp in one form, to the microsecond: the same instant written with or
 * without its fraction, or with another offset, gives the same string.
 */
export function canonicalTimestamp(value: string): string {
  // What does not read as a time is kept as it is: two of them must not look alike.
  if (Number.isNaN(Date.parse(value))) return value;
  const { ms, micros } = timestampKey(value);
  return `${String(Math.floor(ms / 1000))}.${String(micros).padStart(6, '0')}`;
}

function timestampKey(value: string): { ms: number; micros: number } {
  const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(.*)$/.exec(value);
  if (!match) return { ms: Date.parse(value) || 0, micros: 0 };
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  const ms = Date.parse(
    `${match[1] ?? ''}${match[3] === undefined || match[3] === '' ? 'Z' : match[3]}`,
  );
  return { ms: Number.isNaN(ms) ? 0 : ms, micros: Number(fraction) };
}

export function textOf(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

/** `{"type":"connection_rejected","reason":…}` (no reason_code on this endpoint). */
export function rejectionOf(data: string): DebusineError | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, reason } = message as { type?: unknown; reason?: unknown };
  if (type !== 'connection_rejected') return undefined;
  const text = typeof reason === 'string' ? reason : 'no reason given';
  if (/workspace/i.test(text)) {
    return new DebusineError('not-found', `Notifications refused: ${text}`, { detail: text });
  }
  return new DebusineError(
    'auth',
    `The server refused the notification connection (${text}). Sign in again.`,
    { detail: text },
  );
}
