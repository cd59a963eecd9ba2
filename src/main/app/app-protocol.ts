/**
 * The window's page comes from `app://renderer/`, served here from the renderer's build,
 * rather than from file://. A file:// page can read any file through fetch while Electron
 * grants that scheme its extra privileges, and no response header reaches it: its Content
 * Security Policy could only be the page's meta tag. Here every response carries the
 * window's policy as a header, and only the build's own files are served, so the
 * GrantFileProtocolExtraPrivileges fuse can be off (electron-builder.yml).
 */
import { realpath } from 'node:fs/promises';
import type { CustomScheme, Protocol } from 'electron';
import { contentTypeOf, openInside, resolveInside } from '../static-files';
import { WINDOW_CSP } from './window';

export const APP_SCHEME = 'app';
const APP_HOST = 'renderer';
/** The page the window loads; `isAppUrl` (sender.ts) trusts it and nothing else. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Standard, so that the page has an origin of its own ('self' in the policy, relative URLs
 * of its scripts, web storage) and secure, as https is. Nothing more: it bypasses no
 * policy, and it is not corsEnabled, which would let other origins read it.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true },
} as const satisfies CustomScheme;

/** Electron takes this only before `ready`, and only once. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

/** Serves the scheme on a session from `root`, the renderer's build. */
export function serveApp(protocol: Pick<Protocol, 'handle'>, root: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(root, request));
}

const notFound = (): Response => new Response('Not found', { status: 404 });

/**
 * The answer to one request: a file of `root` when the URL names one, once every link on
 * the way is resolved (resolveInside and openInside, as the web host serves the same
 * build); 404 for anything else, whether missing or outside.
 */
export async function appResponse(
  root: string,
  request: { readonly url: string; readonly method: string },
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return notFound();
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound();
  // The pathname as the URL parser left it: `..` resolved, still percent-encoded.
  const file = resolveInside(root, url.pathname);
  if (file === null) return notFound();
  // No build (a checkout that was never built): nothing to serve, rather than a failure.
  const realRoot = await realpath(root).catch(() => null);
  if (realRoot === null) return notFound();
  const opened = await openInside(realRoot, file);
  if (typeof opened === 'string') return notFound();
  let body: Buffer;
  try {
    body = await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: {
      'Content-Type': contentTypeOf(opened.path),
      'Content-Security-Policy': WINDOW_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    },
  });
}
