import { open, realpath, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The Content-Type of a file the renderer's build holds, by its extension. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
}

/** Resolves a URL path inside `root`, or null when it would leave it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const full = join(root, relative);
  return isInside(root, full) ? full : null;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export type Opened = { handle: FileHandle; size: number; path: string } | 'missing' | 'outside';

/**
 * Opens a regular file only if, once every link is resolved, it is still inside `root`: a
 * link in the build folder must not serve what lies outside it.
 */
export async function openInside(realRoot: string, file: string): Promise<Opened> {
  const real = await realpath(file).catch(() => null);
  if (real === null) return 'missing';
  if (!isInside(realRoot, real)) return 'outside';
  const handle = await open(real, 'r').catch(() => null);
  if (handle === null) return 'missing';
  const info = await handle.stat().catch(() => null);
  if (!info?.isFile()) {
    await handle.close();
    return 'missing';
  }
  return { handle, size: info.size, path: real };
}

/**
 * Serves the built renderer. Unknown paths fall back to index.html so that the app's own
 * routes survive a reload.
 */
export async function serveStatic(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = resolveInside(root, req.url ?? '/');
  if (file === null) {
    res.writeHead(400).end('Bad path');
    return;
  }
  const realRoot = await realpath(root);
  let opened = await openInside(realRoot, file);
  if (opened === 'outside') {
    res.writeHead(404).end('Not found');
    return;
  }
  if (opened === 'missing') opened = await openInside(realRoot, join(realRoot, 'index.html'));
  if (typeof opened === 'string') {
    res.writeHead(404).end('The renderer is not built: run `npm run build`.');
    return;
  }
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentTypeOf(opened.path),
    'Content-Length': String(opened.size),
    'Cache-Control': 'no-cache',
  });
  if (req.method === 'HEAD') {
    await opened.handle.close();
    res.end();
    return;
  }
  await pipeline(opened.handle.createReadStream(), res);
}
