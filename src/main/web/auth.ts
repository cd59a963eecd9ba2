/**
 * The web host's guards. The host listens on loopback only, but any local process and any
 * web page the user visits can reach loopback ports. So what acts (the bridge's WebSocket
 * and staging uploads) must carry a random session key, and must come from the host's
 * own origin (a foreign page cannot forge Origin; a program outside the browser can, which
 * is why the key is needed as well).
 *
 * The key is never something the browser would send to another port: no cookie (cookies
 * are scoped by host, not by port, so every page on 127.0.0.1 would receive it), and not in
 * any URL a request carries. The page gets a launch key from the printed URL's fragment,
 * exchanges it once for a session key (the browser's history keeps the URL, so the launch
 * key must be worth nothing afterwards) and presents that itself: as a WebSocket
 * subprotocol and as a header (see shared/web-host-key.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { BRIDGE_PROTOCOL, KEY_HEADER, keyFromProtocols } from '../../shared/web-host-key';

/** 256 random bits, as base64url (a valid WebSocket subprotocol token as it is). */
export function newKey(): string {
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

/**
 * The keys of one host: the launch key of the address to open next, good for one exchange,
 * and the session keys handed out for it, one per exchange (per tab), good until the host
 * stops. Each exchange takes the launch key at once, before any answer, so of two programs
 * presenting it only the first gets a session.
 */
export class HostKeys {
  #launch = newKey();
  readonly #sessions: string[] = [];

  get launchKey(): string {
    return this.#launch;
  }

  /** A new session key for the launch key, which is then replaced; null for any other. */
  exchange(given: string | undefined): string | null {
    if (!keysEqual(this.#launch, given)) return null;
    this.#launch = newKey();
    const session = newKey();
    this.#sessions.push(session);
    return session;
  }

  /** Whether `given` is one of the session keys (compared with each, in constant time). */
  isSession(given: string | null | undefined): boolean {
    let found = false;
    for (const session of this.#sessions) found = keysEqual(session, given) || found;
    return found;
  }
}

export interface Guard {
  keys: HostKeys;
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
 * Whether a bridge upgrade offers the bridge's protocol and a session key as another. The
 * plain protocol must be there too, so that the host can answer without echoing the key.
 */
export function upgradeHasKey(guard: Guard, req: IncomingMessage): boolean {
  const offered = offeredProtocols(req);
  return offered.includes(BRIDGE_PROTOCOL) && guard.keys.isSession(keyFromProtocols(offered));
}

/** The `X-Debusine-Key` header of a request, when it has exactly one. */
export function keyHeader(req: IncomingMessage): string | undefined {
  const header = req.headers[KEY_HEADER.toLowerCase()];
  return typeof header === 'string' ? header : undefined;
}

/** Whether a staging upload carries a session key in its `X-Debusine-Key` header. */
export function headerHasKey(guard: Guard, req: IncomingMessage): boolean {
  return guard.keys.isSession(keyHeader(req));
}

export function hasValidHost(guard: Guard, req: IncomingMessage): boolean {
  return req.headers.host === guard.hostHeader;
}

export function hasValidOrigin(guard: Guard, req: IncomingMessage): boolean {
  return req.headers.origin === guard.origin;
}
