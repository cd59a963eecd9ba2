/**
 * Deep links: a Debusine web UI address of a work request or an artifact
 * (`https://host/<scope>/<workspace>/work-request/123/`), or the app's own scheme
 * (`debusine-desktop://work-request/123`, `debusine-desktop://open?url=<web address>`,
 * `debusine-desktop://log/42?path=build.log&line=120&server=https://host` for a line of an
 * artifact's file). A web address names its server by its origin; the app's own links
 * name none (the active server) or, for a line of a file, the server's origin.
 */
import type { Destination } from './navigation';
import { LOG_LINK_HOST } from '../../shared/log-link';
import { webAddress } from '../../shared/web-address';

export const PROTOCOL = 'debusine-desktop';

/**
 * The longest link read. Anything on the desktop can open a link, at any length; each one
 * is parsed in main. The longest the app writes is a link to a line of a file: a path of
 * at most 1024 bytes (artifact-paths.ts), each byte at most three characters encoded, and
 * a server's origin, well under this.
 */
export const DEEP_LINK_MAX_LENGTH = 8 * 1024;

export type DeepLinkReading =
  { ok: true; destination: Destination } | { ok: false; reason: string };

const NOT_OURS: DeepLinkReading = {
  ok: false,
  reason: 'The link is not a Debusine address of a work request, an artifact or a file.',
};

const NESTED: DeepLinkReading = {
  ok: false,
  reason: 'The link wraps an open link in an open link; an open link carries one address.',
};

const WEB_PATH = /^\/[^/]+\/[^/]+\/(work-request|artifact)\/(\d+)\/?$/;
const APP_PATH = /^\/*(work-request|artifact)\/(\d+)\/?$/;

/** Where a link leads, or why it leads nowhere. */
export function readDeepLink(text: string): DeepLinkReading {
  // Before any parsing. Each parse is linear in the length, and at most two are made (one
  // open link and what it carries), so this bounds all the work a link can cause.
  if (text.length > DEEP_LINK_MAX_LENGTH) {
    return {
      ok: false,
      reason: `The link is ${text.length.toLocaleString('en')} characters long; a Debusine Desktop link is at most ${DEEP_LINK_MAX_LENGTH.toLocaleString('en')}.`,
    };
  }
  return readBounded(text, false);
}

/** The destination of a link, or null when it has none (see readDeepLink for why). */
export function parseDeepLink(text: string): Destination | null {
  const reading = readDeepLink(text);
  return reading.ok ? reading.destination : null;
}

/**
 * `inOpen`: the text came out of an open link. An open link carries a web address; one
 * inside another has no use, and following each would parse the rest of the text once per
 * level, so the second is refused without being followed.
 */
function readBounded(text: string, inOpen: boolean): DeepLinkReading {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return NOT_OURS;
  }
  let destination: Destination | null = null;
  if (url.protocol === `${PROTOCOL}:`) {
    const inner = url.searchParams.get('url');
    if (url.hostname === 'open' && inner !== null) {
      return inOpen ? NESTED : readBounded(inner, true);
    }
    if (url.hostname === LOG_LINK_HOST) destination = logTarget(url);
    else destination = target(APP_PATH.exec(`${url.hostname}${url.pathname}`), null);
  } else if (url.protocol === 'http:' || url.protocol === 'https:') {
    destination = target(WEB_PATH.exec(url.pathname), url.origin);
  }
  return destination === null ? NOT_OURS : { ok: true, destination };
}

function target(match: RegExpExecArray | null, origin: string | null): Destination | null {
  const [, kind, id] = match ?? [];
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const server = origin === null ? null : { origin };
  if (kind === 'work-request') return { target: { kind: 'work-request', id: n }, server };
  if (kind === 'artifact') return { target: { kind: 'artifact', id: n }, server };
  return null;
}

const LOG_PATH = /^\/(\d{1,15})$/;
const LINE = /^[1-9]\d{0,9}$/;
/** Control characters (C0, DEL, C1): no file of an artifact is named with them. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A link to a line of a file: exactly `path`, `line` (from 1) and `server`, each once, and
 * nothing else; a path an artifact could hold and a server that is an http(s) origin.
 * Links written before they named a server are read as the active server's. Anything
 * more or less is not a link of ours.
 */
function logTarget(url: URL): Destination | null {
  const id = Number(LOG_PATH.exec(url.pathname)?.[1]);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const keys = [...url.searchParams.keys()].sort().join('&');
  if ((keys !== 'line&path&server' && keys !== 'line&path') || url.hash !== '') return null;
  const path = url.searchParams.get('path') ?? '';
  const line = url.searchParams.get('line') ?? '';
  if (path === '' || path.length > 4096 || CONTROL.test(path) || !LINE.test(line)) return null;
  const server = url.searchParams.get('server');
  const origin = server === null ? null : originOnly(server);
  if (origin === undefined) return null;
  return {
    target: { kind: 'log', workRequestId: null, artifactId: id, path, line: Number(line) - 1 },
    server: origin === null ? null : { origin },
  };
}

/** An http(s) origin and nothing more (no path, user or query); undefined otherwise. */
function originOnly(text: string): string | undefined {
  return webAddress(text)?.origin === text ? text : undefined;
}

const LINK_SCHEME = new RegExp(`^(?:${PROTOCOL}|https?):`, 'i');

/**
 * The first argument that is a deep link (Linux passes them on the command line). The
 * arguments also hold Electron's own (flags, the app's path), so only those that name a
 * link's scheme and lead nowhere are told to `onRefused`, with why.
 */
export function deepLinkFromArgv(
  argv: readonly string[],
  onRefused: (reason: string) => void = () => undefined,
): Destination | null {
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const reading = readDeepLink(arg);
    if (reading.ok) return reading.destination;
    if (LINK_SCHEME.test(arg)) onRefused(reading.reason);
  }
  return null;
}
