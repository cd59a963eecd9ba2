/**
 * `POST /session`: the page trades the launch key of the address it was opened with for a
 * session key of its own (see auth.ts and shared/web-host-key.ts). Guarded as staging is:
 * the host's own origin (the Host header is checked before any route), by POST, the key
 * in its header and nowhere else. The answer is not cached and sets no cookie; a foreign
 * page gets no CORS header, so it could not read it even if its Origin were let through.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasValidOrigin, keyHeader, type Guard } from './auth';

/** Answers the exchange; `exchanged` runs after the launch key was used, before the answer. */
export function handleSessionExchange(
  guard: Guard,
  req: IncomingMessage,
  res: ServerResponse,
  exchanged: () => void,
): void {
  const session =
    req.method === 'POST' && hasValidOrigin(guard, req)
      ? guard.keys.exchange(keyHeader(req))
      : null;
  if (session === null) {
    res.writeHead(403, { 'Cache-Control': 'no-store' }).end();
    return;
  }
  exchanged();
  res
    .writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
    .end(JSON.stringify({ key: session }));
}
