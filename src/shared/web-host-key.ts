/**
 * How the page presents the web host's session key. The key reaches the page in the URL's
 * fragment (never sent in any request), and the page then presents it only to its own
 * host: on the bridge's WebSocket as a subprotocol, and on staging uploads as a header.
 *
 * Why a subprotocol for the WebSocket: a browser's WebSocket can set no other header, the
 * host checks it at the upgrade (a socket without the key never opens, so there is no
 * unauthenticated state to time out), and unlike a query string it is not part of the URL
 * that servers, proxies and the browser's own tools log.
 */

/** The subprotocol the host answers with; the key's own subprotocol is never echoed. */
export const BRIDGE_PROTOCOL = 'debusine-desktop';

const KEY_PROTOCOL_PREFIX = 'debusine-desktop.key.';

/** The header that carries the key on `POST /staging`. */
export const KEY_HEADER = 'X-Debusine-Key';

/** The subprotocol that carries the key (base64url is a valid protocol token as it is). */
export function keyProtocol(key: string): string {
  return `${KEY_PROTOCOL_PREFIX}${key}`;
}

/** The key offered among the subprotocols, or null when none carries one. */
export function keyFromProtocols(protocols: Iterable<string>): string | null {
  for (const protocol of protocols) {
    if (protocol.startsWith(KEY_PROTOCOL_PREFIX)) return protocol.slice(KEY_PROTOCOL_PREFIX.length);
  }
  return null;
}
