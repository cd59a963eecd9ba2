/**
 * The web host: the built renderer and the bridge contract over a WebSocket, on loopback
 * only, for a browser where Electron is absent (and for the e2e tests in Chromium).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { openConnection } from '../bridge/connection';
import type { Dispatch } from '../bridge/dispatch';
import type { EventHub } from '../bridge/event-outbox';
import type { StagedFiles } from '../service/staged-files';
import { BRIDGE_PROTOCOL, FELL_BEHIND_CODE, SESSION_PATH } from '../../shared/web-host-key';
import {
  hasValidHost,
  hasValidOrigin,
  headerHasKey,
  HostKeys,
  isLoopbackAddress,
  upgradeHasKey,
  type Guard,
} from './auth';
import { owned } from '../streams';
import { handleSessionExchange } from './session-exchange';
import { handleStagingUpload } from './staging-upload';
import { serveStatic } from '../static-files';

export interface WebHostOptions {
  /** Renderer build output (out/renderer). */
  root: string;
  dispatch: Dispatch;
  hub: EventHub;
  files: StagedFiles;
  /** Loopback address to bind; anything else is refused. Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * Told the address to open next, each time the one before was used (each opens one tab;
   * the first is `url` once started).
   */
  onNewAddress?: (url: string) => void;
  /** Where staged uploads go; a fresh temporary directory by default. */
  stagingDir?: string;
  /** Serves `GET /download/<token>` (links from downloads.link); absent: no such route. */
  downloads?: { serve(token: string, res: ServerResponse): Promise<void> };
}

export interface WebHost {
  /**
   * The address to open: its fragment, which no request sends, carries a launch key that
   * the page exchanges once for a session key. Once used, this is a new address.
   */
  readonly url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${String(port)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const BRIDGE_PATH = '/bridge';
const DOWNLOAD_PREFIX = '/download/';
/** Requests are small JSON; files go through /staging, not the socket. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/**
 * What the host may hold for one page, sent and not yet taken by it. A page that stops
 * reading (a hung tab, a hostile one) otherwise makes the host keep every event for it:
 * thousands of completions came to hundreds of MiB. A page that reads never gets near this.
 */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * How long a page that fell behind has to take the close, queued behind what it had not
 * read, before the connection is cut (ws would wait 30 s, holding all of it).
 */
const FELL_BEHIND_GRACE_MS = 5_000;

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host)) {
    throw new Error(`The web host binds to loopback only (127.0.0.1 or ::1), not ${host}`);
  }
  const stagingDir =
    options.stagingDir ?? (await mkdtemp(join(tmpdir(), 'debusine-desktop-staging-')));
  const guard: Guard = { keys: new HostKeys(), origin: '', hostHeader: '' };
  const launchAddress = (): string => `${guard.origin}/#key=${guard.keys.launchKey}`;
  let port = 0;
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // The upgrade was refused unless this protocol was offered; the key's own is never echoed.
    handleProtocols: () => BRIDGE_PROTOCOL,
  });

  const server = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(error instanceof Error ? error.message : 'Internal error');
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', guard.origin);
    if (!hasValidHost(guard, req)) {
      res.writeHead(421).end('Wrong host');
      return;
    }
    if (url.pathname === SESSION_PATH) {
      handleSessionExchange(guard, req, res, () => options.onNewAddress?.(launchAddress()));
      return;
    }
    if (url.pathname === '/staging') {
      if (req.method !== 'POST' || !hasValidOrigin(guard, req) || !headerHasKey(guard, req)) {
        res.writeHead(403).end();
        return;
      }
      await handleStagingUpload(req, res, url, options.files, stagingDir);
      return;
    }
    if (url.pathname.startsWith(DOWNLOAD_PREFIX) && options.downloads) {
      // The browser follows the link as a plain navigation, which can carry no key: the
      // token is the capability. It is unguessable, handed out only over the keyed bridge,
      // used up by its first request and expires within minutes (service/downloads.ts).
      if (req.method !== 'GET') {
        res.writeHead(405).end();
        return;
      }
      await options.downloads.serve(url.pathname.slice(DOWNLOAD_PREFIX.length), res);
      return;
    }
    // The built renderer holds nothing secret (the key reaches the page in the URL's
    // fragment, and the session key comes from /session), so it is served without a key.
    await serveStatic(options.root, req, res, {
      'Content-Security-Policy': contentSecurityPolicy(port),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node's HTTP server takes its own error listener off a socket it hands to 'upgrade':
    // a client that resets the connection after a refusal would otherwise end the host.
    owned(socket);
    const url = new URL(req.url ?? '/', guard.origin);
    const refuse = (status: number, reason: string): void => {
      socket.end(`HTTP/1.1 ${String(status)} ${reason}\r\nConnection: close\r\n\r\n`);
    };
    if (url.pathname !== BRIDGE_PATH) {
      refuse(404, 'Not Found');
      return;
    }
    if (!hasValidHost(guard, req)) {
      refuse(421, 'Misdirected Request');
      return;
    }
    if (!hasValidOrigin(guard, req)) {
      refuse(403, 'Forbidden');
      return;
    }
    if (!upgradeHasKey(guard, req)) {
      refuse(401, 'Unauthorized');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      serveBridge(ws);
    });
  });

  /** Connections releasing what their page held: the host's close waits for them. */
  const closings = new Set<Promise<void>>();

  function serveBridge(ws: WebSocket): void {
    const connection = openConnection(options.dispatch, options.hub, (message) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        // Neither an event nor an answer is dropped silently: the page is closed, so its
        // requests fail as on any lost connection, and a new page reads everything anew.
        fellBehind(ws);
        return;
      }
      ws.send(JSON.stringify(message));
    });
    // ws reports a peer's protocol errors (a message over maxPayload, a bad frame) as an
    // 'error' before it closes the socket; without a listener that error ends the host.
    owned(ws);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let message: unknown;
      try {
        message = JSON.parse(rawText(data));
      } catch {
        return;
      }
      connection.receive(message);
    });
    const closing = new Promise<void>((resolve) => {
      ws.on('close', () => {
        void connection.close().then(resolve);
      });
    });
    closings.add(closing);
    void closing.then(() => closings.delete(closing));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('The web host has no port');
  const hostPart = host.includes(':') ? `[${host}]` : host;
  port = address.port;
  guard.hostHeader = `${hostPart}:${String(address.port)}`;
  guard.origin = `http://${guard.hostHeader}`;

  return {
    get url() {
      return launchAddress();
    },
    origin: guard.origin,
    port: address.port,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await Promise.all(closings);
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      if (!options.stagingDir) await rm(stagingDir, { recursive: true, force: true });
    },
  };
}

/** Closes a page's connection that holds too much unsent, and cuts it if it cannot close. */
function fellBehind(ws: WebSocket): void {
  ws.close(FELL_BEHIND_CODE, 'The page stopped reading; reload it');
  setTimeout(() => {
    ws.terminate();
  }, FELL_BEHIND_GRACE_MS).unref();
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
