/**
 * The web host's guards. The host listens on loopback only, but any local process and any
 * web page the user visits can reach loopback ports, so every request must also carry the
 * random session key (in the URL the host prints, then in a cookie), and the WebSocket and
 * staging uploads must come from the host's own origin (a foreign page cannot forge Origin).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

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

/** Cookies are not per port, so the name carries it: two hosts never see each other's key. */
export function cookieName(port: number): string {
  return `debusine_desktop_key_${String(port)}`;
}

export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export interface Guard {
  key: string;
  port: number;
  /** `http://127.0.0.1:PORT`, the only origin allowed. */
  origin: string;
  /** The Host header a genuine request carries (refuses DNS-rebound names). */
  hostHeader: string;
}

/** The key from the query, the `X-Debusine-Key` header or the cookie, if it is right. */
export function hasValidKey(guard: Guard, req: IncomingMessage, url: URL): boolean {
  const header = req.headers['x-debusine-key'];
  const candidates = [
    url.searchParams.get('key'),
    typeof header === 'string' ? header : undefined,
    cookieValue(req, cookieName(guard.port)),
  ];
  return candidates.some((candidate) => keysEqual(guard.key, candidate));
}

export function hasValidHost(guard: Guard, req: IncomingMessage): boolean {
  return req.headers.host === guard.hostHeader;
}

export function hasValidOrigin(guard: Guard, req: IncomingMessage): boolean {
  return req.headers.origin === guard.origin;
}
