/**
 * Deep links: a Debusine web UI address of a work request or an artifact
 * (`https://host/<scope>/<workspace>/work-request/123/`), or the app's own scheme
 * (`debusine-desktop://work-request/123`, `debusine-desktop://open?url=<web address>`,
 * `debusine-desktop://log/42?path=build.log&line=120&server=https://host` for a line of an
 * artifact's file). A web address names its server by its origin; the app's own links
 * name none (the active server) or, for a line of a file, the server's origin.
 */
import type { Destination } from '../service/navigation';
import { LOG_LINK_HOST } from '../../shared/log-link';

export const PROTOCOL = 'debusine-desktop';

const WEB_PATH = /^\/[^/]+\/[^/]+\/(work-request|artifact)\/(\d+)\/?$/;
const APP_PATH = /^\/*(work-request|artifact)\/(\d+)\/?$/;

export function parseDeepLink(text: string): Destination | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol === `${PROTOCOL}:`) {
    const inner = url.searchParams.get('url');
    if (url.hostname === 'open' && inner !== null) return parseDeepLink(inner);
    if (url.hostname === LOG_LINK_HOST) return logTarget(url);
    return target(APP_PATH.exec(`${url.hostname}${url.pathname}`), null);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return target(WEB_PATH.exec(url.pathname), url.origin);
  }
  return null;
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
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === text ? text : undefined;
}

/** The first argument that is a deep link (Linux passes them on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): Destination | null {
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const found = parseDeepLink(arg);
    if (found) return found;
  }
  return null;
}
