/**
 * Deep links: a Debusine web UI address of a work request or an artifact
 * (`https://host/<scope>/<workspace>/work-request/123/`), or the app's own scheme
 * (`debusine-desktop://work-request/123`, `debusine-desktop://open?url=<web address>`).
 */
import type { NavigateTarget } from '../../shared/contract';

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

/** The first argument that is a deep link (Linux passes them on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): NavigateTarget | null {
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const found = parseDeepLink(arg);
    if (found) return found;
  }
  return null;
}
