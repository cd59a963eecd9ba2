/**
 * A stand-in Debusine on 127.0.0.1 that records the headers of every request and every
 * websocket upgrade it receives, so that a test can say which tokens reached it. It
 * answers whoami (signed in when the `Token` header is the one it issued, anonymous
 * otherwise), accepts every completion websocket with `connected`, holds an enrollment
 * open as if nobody had confirmed it yet, and answers anything else with 404; or, told
 * to, redirects every request and upgrade to another server.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { WebSocketServer } from 'ws';
import { listenOnLoopback } from './loopback-http';

export interface Received {
  kind: 'request' | 'upgrade';
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  apiUrl: string;
  /** Every request and upgrade so far, oldest first. */
  received: Received[];
  /** The received requests and upgrades with a header whose value contains `secret`. */
  carrying(secret: string): Received[];
  close(): Promise<void>;
}

export interface RecordingOptions {
  /** The token whoami accepts. */
  issued?: string;
  /** Answers every request and upgrade with a redirect to the same path there instead. */
  redirectTo?: string;
}

export async function recordingServer(options: RecordingOptions = {}): Promise<RecordingServer> {
  const received: Received[] = [];
  const record = (
    kind: Received['kind'],
    req: { method?: string; url?: string; headers: IncomingHttpHeaders },
  ) => {
    received.push({
      kind,
      method: req.method ?? '',
      url: req.url ?? '',
      headers: { ...req.headers },
    });
  };
  const server = createServer((req, res) => {
    record('request', req);
    req.resume();
    if (options.redirectTo !== undefined) {
      res.writeHead(302, { location: `${options.redirectTo}${req.url ?? '/'}` }).end();
      return;
    }
    if (req.method === 'GET' && req.url === '/api/1.0/whoami/') {
      const auth = options.issued !== undefined && req.headers.token === options.issued;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ user: auth ? 'alice' : '', auth, worker: false }));
      return;
    }
    if (req.method === 'POST' && req.url === '/api/enroll/') {
      // As Debusine does, the answer waits for the user on the confirmation page: here,
      // for good (until the client hangs up).
      res.writeHead(200, { 'content-type': 'application/json' }).write('\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
  });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    record('upgrade', req);
    if (options.redirectTo !== undefined) {
      socket.end(
        `HTTP/1.1 302 Found\r\nLocation: ${options.redirectTo}${req.url ?? '/'}\r\n` +
          'Content-Length: 0\r\nConnection: close\r\n\r\n',
      );
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'websocket.send', text: 'connected' }));
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    origin: listening.origin,
    apiUrl: `${listening.origin}/api`,
    received,
    carrying: (secret) =>
      received.filter((r) =>
        Object.values(r.headers).some((value) =>
          (Array.isArray(value) ? value : [value ?? '']).some((v) => v.includes(secret)),
        ),
      ),
    async close() {
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      await listening.close();
    },
  };
}
