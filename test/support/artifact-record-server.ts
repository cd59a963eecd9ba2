/**
 * A local server that answers `GET /api/1.0/artifact/{id}/` with an artifact record of as
 * many files as a test asks for, shaped as Debusine 0.16 sends them, generated as it is sent
 * (a record of a million files is 300 MB, never held whole) and paced by the client's
 * reading. It counts the bytes it managed to hand to the connection, and whether the client
 * closed the connection before the record ended.
 */
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, sendAsRead, type Sent } from './loopback-http';

export interface RecordShape {
  files: number;
  /** Each file's path is padded to this many characters (default: about 40, as real ones). */
  pathLength?: number;
  /** Announce the length (default: chunked, so that only the bytes read can tell). */
  contentLength?: boolean;
  /** The artifact's `data`, as JSON text (default: `{}`). */
  data?: string;
}

export type { Sent };

export interface RecordServer {
  apiUrl: string;
  /** Serves a record of `shape` as artifact `id`. */
  artifact(id: number, shape: RecordShape): void;
  /** The length in bytes of the record of `shape` as artifact `id`. */
  length(id: number, shape: RecordShape): number;
  /** What was sent for artifact `id`, once its response is closed. */
  sent(id: number): Promise<Sent>;
  close(): Promise<void>;
}

/** Files go out this many to a write: about 100 KiB. */
const BATCH = 300;

function filePath(index: number, length: number | undefined): string {
  const name = `pool/main/l/linux-signed/linux-image-${String(index)}`;
  const pad = length === undefined ? 0 : Math.max(0, length - name.length - 4);
  return `${name}${'x'.repeat(pad)}.deb`;
}

/** The record, in pieces: the fields before the files, the files in batches, the end. */
function* recordPieces(site: string, id: number, shape: RecordShape): Generator<string> {
  const web = `/debusine/System/artifact/${String(id)}/`;
  yield (
    `{"id":${String(id)},"url":"${web}","scope":"debusine","workspace":"System",` +
    `"category":"debian:binary-packages","created_at":"2026-11-21T00:00:00Z",` +
    `"expire_at":null,"data":${shape.data ?? '{}'},"download_tar_gz_url":"${site}${web}download/?archive=tar.gz",` +
    `"files_to_upload":[],"links":{"self":"/api/1.0/artifact/${String(id)}/"},"files":{`
  );
  for (let start = 0; start < shape.files; start += BATCH) {
    const entries: string[] = [];
    for (let i = start; i < Math.min(shape.files, start + BATCH); i++) {
      const path = filePath(i, shape.pathLength);
      entries.push(
        `${i === 0 ? '' : ','}"${path}":{"size":${String(1000 + i)},` +
          `"checksums":{"sha256":"${i.toString(16).padStart(64, '0')}"},"type":"file",` +
          `"url":"${site}${web}download/${path}",` +
          `"content_type":"application/vnd.debian.binary-package","links":{}}`,
      );
    }
    yield entries.join('');
  }
  yield '}}';
}

function byteLength(site: string, id: number, shape: RecordShape): number {
  let total = 0;
  for (const piece of recordPieces(site, id, shape)) total += Buffer.byteLength(piece);
  return total;
}

export async function startRecordServer(): Promise<RecordServer> {
  const shapes = new Map<number, RecordShape>();
  const done = new Map<number, Promise<Sent>>();
  let site = '';

  function send(id: number, shape: RecordShape, res: ServerResponse): Promise<Sent> {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (shape.contentLength) headers['content-length'] = byteLength(site, id, shape);
    res.writeHead(200, headers);
    return sendAsRead(res, recordPieces(site, id, shape));
  }

  const server = createServer((req, res) => {
    const id = Number(/^\/api\/1\.0\/artifact\/(\d+)\/$/.exec(req.url ?? '')?.[1]);
    const shape = shapes.get(id);
    if (!shape) return void res.writeHead(404).end();
    done.set(id, send(id, shape, res));
  });
  const listening = await listenOnLoopback(server);
  site = listening.origin;
  return {
    apiUrl: `${site}/api`,
    artifact: (id, shape) => void shapes.set(id, shape),
    length: (id, shape) => byteLength(site, id, shape),
    sent: async (id) => {
      const sent = done.get(id);
      if (!sent) throw new Error(`artifact ${String(id)} was not asked for`);
      return sent;
    },
    close: listening.close,
  };
}
