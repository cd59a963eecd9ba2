/**
 * A hostile Debusine, on 127.0.0.1: a real node:http server that answers
 * `GET /api/1.0/artifact/{id}/` with artifact JSON shaped like the real servers' (0.16 by
 * default, 0.11 on request) and serves file bodies and tarballs however a test says: whole,
 * endless, cut after N bytes. Every response is logged with the bytes it managed to send
 * and whether the client hung up before it ended. Tests that need more of the API (work
 * requests, the completion websocket: fake-work-requests.ts, an upload) add handlers and
 * routes of their own.
 */
import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpTransport, type HttpOptions } from '../../src/main/api/http';
import { listenOnLoopback } from './loopback-http';

export type Responder = (req: IncomingMessage, res: ServerResponse) => void;

export interface FakeFile {
  path: string;
  /** What the server sends (unless `serve` says otherwise) and declares by default. */
  content?: Buffer | string;
  /** The declared size, when it should differ from the content's. */
  size?: number;
  /** The declared checksums, when they should differ from the content's SHA-256. */
  checksums?: Record<string, string>;
  serve?: Responder;
}

export interface ServedResponse {
  path: string;
  bytes: number;
  /** The client closed the connection before the response ended. */
  closedEarly: boolean;
}

export interface FakeDebusine {
  apiUrl: string;
  site: string;
  /** A transport to this server (no retries), with `options` on top. */
  transport(options?: Partial<HttpOptions>): HttpTransport;
  artifact(
    id: number,
    files: FakeFile[],
    options?: {
      tarball?: Buffer | Responder;
      revision?: '0.16' | '0.11';
      /** How the artifact's record (its JSON) is sent; whole by default. */
      record?: (json: string) => Responder;
      /** Fields of the record in place of the defaults (`category`, `data`…). */
      fields?: Record<string, unknown>;
      /** Its category (default `debusine:work-request-debug-logs`). */
      category?: string;
    },
  ): void;
  /**
   * Answers every request whose path (with its query) starts with `prefix` and that no
   * artifact route answers; the longest prefix wins.
   */
  handle(prefix: string, responder: Responder): void;
  /** Takes the HTTP upgrades (websockets); without it, they are refused. */
  onUpgrade(handler: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): void;
  /** Answers `method` requests for `path` (and its query) with `responder`. */
  route(method: string, path: string, responder: Responder): void;
  /** Every response so far, in the order they were closed. */
  readonly served: ServedResponse[];
  /** The responses to requests under `path` (a prefix). */
  servedUnder(path: string): ServedResponse[];
  close(): Promise<void>;
}

export const sha256 = (data: Buffer | string): string =>
  createHash('sha256').update(data).digest('hex');

/** Sends `data` whole, with a Content-Length unless told not to (then chunked). */
export function whole(data: Buffer | string, contentLength = true): Responder {
  return (_req, res) => {
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/octet-stream' };
    if (contentLength) headers['content-length'] = Buffer.byteLength(data);
    res.writeHead(200, headers).end(data);
  };
}

/**
 * Streams zeros, chunked, until `limit` bytes or until the client hangs up, honouring
 * back-pressure (so what was sent is what the client let in).
 */
export function endless(limit = 64 * 2 ** 20, prefix: Buffer = Buffer.alloc(0)): Responder {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const pump = (): void => {
      if (sent === 0 && prefix.length > 0) {
        sent += prefix.length;
        if (!res.write(prefix)) return void res.once('drain', pump);
      }
      while (sent < limit && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

/**
 * Announces `data` (Content-Length, or chunked), sends its first `at` bytes, then breaks
 * the connection.
 */
export function cutAfter(data: Buffer | string, at: number, contentLength = true): Responder {
  const bytes = Buffer.from(data);
  return (_req, res) => {
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/octet-stream' };
    if (contentLength) headers['content-length'] = bytes.length;
    res.writeHead(200, headers);
    res.flushHeaders();
    const breakIt = (): void => {
      setTimeout(() => res.socket?.destroy(), 20);
    };
    if (at === 0) breakIt();
    else res.write(bytes.subarray(0, at), breakIt);
  };
}

/**
 * Announces `data`, sends its first `at` bytes, then sends nothing more and keeps the
 * connection open (a stalled server), calling `stalled` once those bytes are out.
 */
export function stallAfter(
  data: Buffer | string,
  at: number,
  stalled: () => void,
  contentLength = true,
): Responder {
  const bytes = Buffer.from(data);
  return (_req, res) => {
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/octet-stream' };
    if (contentLength) headers['content-length'] = bytes.length;
    res.writeHead(200, headers);
    res.write(bytes.subarray(0, at), stalled);
  };
}

/**
 * Announces `data`, then sends it `step` bytes at a time every `everyMs`, never silent for
 * long but ever so slow; stops when the client hangs up.
 */
export function trickle(data: Buffer | string, step: number, everyMs: number): Responder {
  const bytes = Buffer.from(data);
  return (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
    });
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed || sent >= bytes.length) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(bytes.subarray(sent, sent + step));
      sent += step;
    }, everyMs);
    res.once('close', () => {
      clearInterval(timer);
    });
  };
}

function artifactJson(
  site: string,
  id: number,
  files: FakeFile[],
  revision: '0.16' | '0.11',
  category = 'debusine:work-request-debug-logs',
): Record<string, unknown> {
  const web = `/debusine/System/artifact/${String(id)}/`;
  const tarball = `${web}download/?archive=tar.gz`;
  const fileJson = (file: FakeFile): Record<string, unknown> => {
    const content = file.content ?? '';
    const json: Record<string, unknown> = {
      size: file.size ?? Buffer.byteLength(content),
      checksums: file.checksums ?? { sha256: sha256(content) },
      type: 'file',
      // The real servers' form: the download base plus the raw (unquoted) path.
      url: `${site}${web}download/${file.path}`,
    };
    if (revision === '0.16') {
      json.content_type = 'application/octet-stream';
      json.links = {};
    }
    return json;
  };
  const json: Record<string, unknown> = {
    id,
    workspace: 'System',
    category,
    created_at: '2026-11-21T00:00:00Z',
    expire_at: null,
    data: {},
    download_tar_gz_url: site + tarball,
    files_to_upload: [],
    files: Object.fromEntries(files.map((file) => [file.path, fileJson(file)])),
  };
  if (revision === '0.16') {
    json.url = web;
    json.scope = 'debusine';
    json.links = {
      self: `/api/1.0/artifact/${String(id)}/`,
      webui_self: web,
      download_tar_gz: { href: tarball, type: 'application/tar+gzip' },
    };
  }
  return json;
}

/** The path and query a client asks for when it fetches `url`. */
function routeOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

export async function startFakeDebusine(): Promise<FakeDebusine> {
  const routes = new Map<string, Responder>();
  const prefixes = new Map<string, Responder>();
  /** By `METHOD path`: the test's own routes, before the artifacts' (which answer any method). */
  const methodRoutes = new Map<string, Responder>();
  const served: ServedResponse[] = [];
  let upgrade: ((req: IncomingMessage, socket: Duplex, head: Buffer) => void) | undefined;
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    const log: ServedResponse = { path, bytes: 0, closedEarly: false };
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: Buffer | string, ...rest: unknown[]) => {
      log.bytes += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.on('close', () => {
      log.closedEarly = !res.writableFinished;
      served.push(log);
    });
    const prefix = [...prefixes.keys()]
      .filter((p) => path.startsWith(p))
      .sort((a, b) => b.length - a.length)[0];
    const route =
      methodRoutes.get(`${req.method ?? ''} ${path}`) ??
      routes.get(path) ??
      (prefix === undefined ? undefined : prefixes.get(prefix));
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (upgrade) upgrade(req, socket, head);
    else socket.destroy();
  });
  const listening = await listenOnLoopback(server);
  const site = listening.origin;
  const apiUrl = `${site}/api`;
  return {
    apiUrl,
    site,
    served,
    transport: (options = {}) => new HttpTransport({ apiUrl, token: 't', retries: 0, ...options }),
    artifact(id, files, options = {}) {
      const json = {
        ...artifactJson(site, id, files, options.revision ?? '0.16', options.category),
        ...options.fields,
      };
      routes.set(
        `/api/1.0/artifact/${String(id)}/`,
        options.record
          ? options.record(JSON.stringify(json))
          : (_req, res) => {
              res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
            },
      );
      for (const file of files) {
        const responder = file.serve ?? whole(file.content ?? '');
        routes.set(
          routeOf(`${site}/debusine/System/artifact/${String(id)}/download/${file.path}`),
          responder,
        );
      }
      const tarball = options.tarball ?? Buffer.alloc(0);
      routes.set(
        routeOf(String(json.download_tar_gz_url)),
        Buffer.isBuffer(tarball) ? whole(tarball, false) : tarball,
      );
    },
    handle(prefix, responder) {
      prefixes.set(prefix, responder);
    },
    onUpgrade(handler) {
      upgrade = handler;
    },
    route(method, path, responder) {
      methodRoutes.set(`${method} ${path}`, responder);
    },
    servedUnder: (path) => served.filter((s) => s.path.startsWith(path)),
    close: listening.close,
  };
}
