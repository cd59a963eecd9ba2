/**
 * The web host's guards. The host listens on loopback only, but any local process and any
 * web page the user visits can reach loopback ports. So what acts (the bridge's WebSocket
 * and staging uploads) must carry the random session key, and must come from the host's
 * own origin (a foreign page cannot forge Origin; a program outside the browser can, which
 * is why the key is needed as well).
 *
 * The key is never something the browser would send to another port: no cookie (cookies
 * are scoped by host, not by port, so every page on 127.0.0.1 would receive it), and not in
 * any URL a request carries. The page gets it from the printed URL's fragment and presents
 * it itself: as a WebSocket subprotocol and as a header (see shared/web-host-key.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { BRIDGE_PROTOCOL, KEY_HEADER, keyFromProtocols } from '../../shared/web-host-key';

export function newSessionKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Only loopback addresses: 127.0.0.0/8 and ::1. Names are refused (they could resolve anywhere). */
export function isLoopbackAddress(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

export function keysEqual(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface Guard {
  key: string;
  /** `http://127.0.0.1:PORT`, the only origin allowed. */
  origin: string;
  /** The Host header a genuine request carries (refuses DNS-rebound names). */
  hostHeader: string;
}

/** The subprotocols a WebSocket upgrade offers, in order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * Whether a bridge upgrade offers the bridge's protocol and the right key as another. The
 * plain protocol must be there too, so that the host can answer without echoing the key.
 */
export function upgradeHasKey(guard: Guard, req: IncomingMessage): boolean {
  const offered = offeredProtocols(req);
  return offered.includes(BRIDGE_PROTOCOL) && keysEqual(guard.key, keyFromProtocols(offered));
}

/** Whether a staging upload carries the right key in its `X-Debusine-Key` header. */
export function headerHasKey(guard: Guard, req: IncomingMessage): boolean {
  const header = req.headers[KEY_HEADER.toLowerCase()];
  return keysEqual(guard.key, typeof header === 'string' ? header : undefined);
}

export function hasValidHost(guard: Guard, req: IncomingMessage): boolean {
  return req.headers.host === guard.hostHeader;
}

export function hasValidOrigin(guard: Guard, req: IncomingMessage): boolean {
  return req.headers.origin === guard.origin;
}
