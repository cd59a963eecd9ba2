/** Plain requests to a local server, as any local program (not a browser) can make them. */
import { request, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer, type ServerOptions } from 'ws';

export interface Answer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

/** One HTTP request; the whole answer as text. */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface SocketAttempt {
  /** Subprotocols offered. */
  protocols?: string[];
  /** The Origin header (a program outside the browser sets whatever it likes). */
  origin?: string;
  headers?: Record<string, string>;
}

/** Opens a WebSocket with exactly the headers given. */
export function openSocket(url: string, attempt: SocketAttempt = {}): WebSocket {
  return new WebSocket(url, attempt.protocols ?? [], {
    ...(attempt.origin === undefined ? {} : { origin: attempt.origin }),
    headers: attempt.headers ?? {},
  });
}

/** Whether the WebSocket opens; else the HTTP status that refused it (0: no answer). */
export function trySocket(url: string, attempt: SocketAttempt = {}): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = openSocket(url, attempt);
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', () => {
      resolve(0);
    });
  });
}

export interface Listening {
  port: number;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Drops open connections, then stops listening. */
  close: () => Promise<void>;
}

/** Starts `server` on a free loopback port. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return {
    port: address.port,
    origin: `http://127.0.0.1:${String(address.port)}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Sent {
  bytes: number;
  /** Whether the client closed the connection before the answer ended. */
  closedEarly: boolean;
}

/**
 * Sends `pieces` as the body of `res` (whose head is written), a piece whenever the
 * connection takes more, so that a client that stops reading stops the sending; resolves
 * once the response closes, with what was handed to the connection.
 */
export function sendAsRead(res: ServerResponse, pieces: Iterator<string>): Promise<Sent> {
  const sent: Sent = { bytes: 0, closedEarly: false };
  const pump = (): void => {
    for (;;) {
      if (res.destroyed) return;
      const next = pieces.next();
      if (next.done === true) return void res.end();
      sent.bytes += Buffer.byteLength(next.value);
      if (!res.write(next.value)) return void res.once('drain', pump);
    }
  };
  return new Promise((resolve) => {
    res.on('close', () => {
      sent.closedEarly = !res.writableFinished;
      resolve(sent);
    });
    pump();
  });
}

export interface LoopbackWebSockets {
  wss: WebSocketServer;
  /** `http://127.0.0.1:PORT/api`: an API whose websockets are this server's. */
  apiUrl: string;
  /** Drops every connection, then stops listening. */
  close: () => Promise<void>;
}

/**
 * A WebSocket server on a free loopback port, standing in for a Debusine's websockets;
 * `options` as ws takes them (its address aside).
 */
export async function webSocketsOnLoopback(
  options: Omit<ServerOptions, 'port' | 'host'> = {},
): Promise<LoopbackWebSockets> {
  const wss = new WebSocketServer({ ...options, port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const { port } = wss.address() as AddressInfo;
  return {
    wss,
    apiUrl: `http://127.0.0.1:${String(port)}/api`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => {
        wss.close(resolve);
      });
    },
  };
}
