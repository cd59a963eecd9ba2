/**
 * Deep links: a Debusine web UI address of a work request or an artifact
 * (`https://host/<scope>/<workspace>/work-request/123/`), or the app's own scheme
 * (`debusine-desktop://work-request/123`, `debusine-desktop://open?url=<web address>`,
 * `debusine-desktop://log/42?path=build.log&line=120` for a line of an artifact's file).
 */
import type { NavigateTarget } from '../../shared/contract';
import { LOG_LINK_HOST } from '../../shared/log-link';

export const PROTOCOL = 'debusine-desktop';

const WEB_PATH = /^\/[^/]+\/[^/]+\/(work-request|artifact)\/(\d+)\/?$/;
const APP_PATH = /^\/*(work-request|artifact)\/(\d+)\/?$/;

export function parseDeepLink(text: string): NavigateTarget | null {
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

function target(match: RegExpExecArray | null, origin: string | null): NavigateTarget | null {
  const [, kind, id] = match ?? [];
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  if (kind === 'work-request') return { kind: 'work-request', id: n, origin };
  if (kind === 'artifact') return { kind: 'artifact', id: n, origin };
  return null;
}

const LOG_PATH = /^\/(\d{1,15})$/;
const LINE = /^[1-9]\d{0,9}$/;
/** Control characters (C0, DEL, C1): no file of an artifact is named with them. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A link to a line of a file: exactly `path` and `line` (from 1), each once, and nothing
 * else; a path an artifact could hold. Anything more or less is not a link of ours.
 */
function logTarget(url: URL): NavigateTarget | null {
  const id = Number(LOG_PATH.exec(url.pathname)?.[1]);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const keys = [...url.searchParams.keys()].sort();
  if (keys.join('&') !== 'line&path' || url.hash !== '') return null;
  const path = url.searchParams.get('path') ?? '';
  const line = url.searchParams.get('line') ?? '';
  if (path === '' || path.length > 4096 || CONTROL.test(path) || !LINE.test(line)) return null;
  return { kind: 'log', workRequestId: null, artifactId: id, path, line: Number(line) - 1 };
}

/** The first argument that is a deep link (Linux passes them on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): NavigateTarget | null {
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const found = parseDeepLink(arg);
    if (found) return found;
  }
  return null;
}
