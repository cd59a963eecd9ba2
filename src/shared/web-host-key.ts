/**
 * How the page presents the web host's keys. The printed address carries a launch key in
 * its fragment (never sent in any request). The browser keeps that address, fragment and
 * all, in its history, where any program of the user's can read it; so the launch key
 * opens nothing itself and works once: the page sends it to POST /session and gets a
 * session key of its own, which it presents only to its own host: on the bridge's
 * WebSocket as a subprotocol, and on staging uploads as a header.
 *
 * Why a subprotocol for the WebSocket: a browser's WebSocket can set no other header, the
 * host checks it at the upgrade (a socket without the key never opens, so there is no
 * unauthenticated state to time out), and unlike a query string it is not part of the URL
 * that servers, proxies and the browser's own tools log.
 */

/** The subprotocol the host answers with; the key's own subprotocol is never echoed. */
export const BRIDGE_PROTOCOL = 'debusine-desktop';

const KEY_PROTOCOL_PREFIX = 'debusine-desktop.key.';

/**
 * The header that carries a key: the launch key on `POST /session`, the session key on
 * `POST /staging`.
 */
export const KEY_HEADER = 'X-Debusine-Key';

/** Where the page exchanges the launch key for a session key: `{"key": "…"}` back. */
export const SESSION_PATH = '/session';

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

/**
 * The close code of a page that fell too far behind reading its bridge (the 4000s are the
 * application's): the host held all it may for it. The page reloads, which reads everything
 * anew with the session key the tab kept.
 */
export const FELL_BEHIND_CODE = 4008;
