/**
 * Downloads (protocol §7): one file (`files[path].url`), or a whole artifact, either as
 * the tarball kept on disk or streamed and unpacked into a destination. Sizes and SHA-256
 * are checked against the artifact's file list. The token is only sent to the server's
 * own origin, also across redirects (object storage URLs get no token).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DebusineError } from '../../shared/errors';
import type { ArtifactResponse } from '../../shared/models';
import { errorFromResponse, networkError, type HttpTransport } from '../api/http';
import { ProgressTracker, type ProgressListener } from './progress';
import { getArtifact, transportOf, type ClientLike } from './remote';
import { extractTarStream } from './safe-extract';
import type { Readable } from 'node:stream';

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

export interface DownloadArtifactOptions extends DownloadOptions {
  /** Keep `artifact-{id}.tar.gz` instead of unpacking it. */
  tarball?: boolean;
  /** How to fetch when unpacking: `auto` follows the Python client's heuristic. */
  via?: 'auto' | 'archive' | 'files';
}

const MAX_REDIRECTS = 5;
/**
 * How much of a response body may wait in memory before the socket is paused. With
 * undici's default (64 KiB), each short wait of the disk paused the socket, and the
 * server's TCP flow control then took tens of milliseconds to start again, thousands of
 * times per download: 10–30 s for 60 MiB that curl fetched in 2–3 s. 4 MiB rides over
 * the disk's pauses (measured: 2–3 s, like curl, every time).
 */
const BODY_BUFFER = 4 * 2 ** 20;
/** Writes of 1 MiB rather than 16 KiB: fewer system calls and fewer pauses. */
const WRITE_BUFFER = 2 ** 20;

async function open(http: HttpTransport, url: string, operation: string, signal?: AbortSignal) {
  const site = new URL(http.siteUrl).origin;
  let current = new URL(url, http.siteUrl);
  for (let hop = 0; ; hop++) {
    let response;
    try {
      response = await http.dispatcher.request({
        origin: current.origin,
        path: current.pathname + current.search,
        method: 'GET',
        headers: current.origin === site ? http.authHeaders() : {},
        signal,
        headersTimeout: 60_000,
        bodyTimeout: 300_000,
        highWaterMark: BODY_BUFFER,
      });
    } catch (error) {
      throw networkError(operation, current.toString(), error);
    }
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(response.statusCode) && typeof location === 'string') {
      await response.body.dump();
      if (hop >= MAX_REDIRECTS) {
        throw new DebusineError('bad-response', `${operation}: too many redirects`, { operation });
      }
      current = new URL(location, current);
      continue;
    }
    if (response.statusCode !== 200) {
      throw await errorFromResponse(operation, {
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
      });
    }
    return response.body as unknown as Readable;
  }
}

function counter(onBytes: (n: number) => void) {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      onBytes(bytes);
      callback(null, chunk);
    },
  });
}

/** Writes a stream to `target` without ever replacing an existing file. */
async function saveExclusive(
  body: Readable,
  target: string,
  through: Transform,
  signal?: AbortSignal,
) {
  await mkdir(dirname(target), { recursive: true });
  const temporary = join(dirname(target), `.${basename(target)}.${randomUUID()}.part`);
  try {
    await pipeline(
      body,
      through,
      createWriteStream(temporary, { flags: 'wx', highWaterMark: WRITE_BUFFER }),
      { signal },
    );
    try {
      await link(temporary, target);
    } catch (error) {
      const exists = (error as { code?: string }).code === 'EEXIST';
      throw new DebusineError(
        'conflict',
        exists ? `${target} already exists` : `Cannot write ${target}`,
        {
          file: target,
        },
      );
    }
  } finally {
    await rm(temporary, { force: true });
  }
}

function mismatch(what: string, path: string, expected: unknown, got: unknown): DebusineError {
  return new DebusineError(
    'bad-response',
    `${path}: ${what} mismatch (expected ${String(expected)}, received ${String(got)})`,
    { file: path, rule: 'download-verify' },
  );
}

async function resolveArtifact(
  client: ClientLike,
  artifact: number | ArtifactResponse,
  signal?: AbortSignal,
) {
  return typeof artifact === 'number' ? getArtifact(client, artifact, signal) : artifact;
}

export async function downloadArtifactFile(
  client: ClientLike,
  artifact: number | ArtifactResponse,
  pathInArtifact: string,
  destinationFile: string,
  options: DownloadOptions = {},
): Promise<ArtifactResponse> {
  const http = transportOf(client);
  const response = await resolveArtifact(client, artifact, options.signal);
  const file = response.files[pathInArtifact];
  if (!file) {
    throw new DebusineError(
      'not-found',
      `Artifact ${String(response.id)} has no file ${pathInArtifact}`,
      {
        operation: 'downloadArtifactFile',
        file: pathInArtifact,
      },
    );
  }
  const tracker = new ProgressTracker([[pathInArtifact, file.size]], options.onProgress);
  const body = await open(http, file.url, 'downloadArtifactFile', options.signal);
  const hash = createHash('sha256');
  let size = 0;
  // Verified before the file takes its final name: a bad download never appears there.
  const verify = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      hash.update(chunk);
      tracker.update(pathInArtifact, size);
      callback(null, chunk);
    },
    flush(callback) {
      const expected = file.checksums.sha256;
      const got = hash.digest('hex');
      if (size !== file.size) callback(mismatch('size', pathInArtifact, file.size, size));
      else if (expected && expected !== got) {
        callback(mismatch('hash', pathInArtifact, expected, got));
      } else callback();
    },
  });
  await saveExclusive(body, destinationFile, verify, options.signal);
  tracker.update(pathInArtifact, file.size, 'done');
  return response;
}

export async function downloadArtifact(
  client: ClientLike,
  artifactId: number,
  destination: string,
  options: DownloadArtifactOptions = {},
): Promise<ArtifactResponse> {
  const http = transportOf(client);
  const artifact = await getArtifact(client, artifactId, options.signal);
  const label = `artifact ${String(artifactId)}`;
  const entries = Object.entries(artifact.files);
  const total = entries.reduce((sum, [, f]) => sum + f.size, 0);
  if (options.tarball) {
    const name = `artifact-${String(artifactId)}.tar.gz`;
    const tracker = new ProgressTracker([[name, 0]], options.onProgress);
    const body = await open(http, artifact.download_tar_gz_url, 'downloadArtifact', options.signal);
    await saveExclusive(
      body,
      join(destination, name),
      counter((n) => {
        tracker.update(name, n);
      }),
      options.signal,
    );
    tracker.update(name, 0, 'done');
    return artifact;
  }
  const via =
    options.via && options.via !== 'auto'
      ? options.via
      : entries.length === 1 ||
          entries.some(([, f]) => f.size > 20 * 1024 * 1024) ||
          total >= 100 * 1024 * 1024
        ? 'files'
        : 'archive';
  if (via === 'files') {
    for (const [path] of entries) {
      await downloadArtifactFile(
        client,
        artifact,
        path,
        join(destination, ...path.split('/')),
        options,
      );
    }
    return artifact;
  }
  const tracker = new ProgressTracker([[label, total]], options.onProgress);
  const body = await open(http, artifact.download_tar_gz_url, 'downloadArtifact', options.signal);
  const extracted = await extractTarStream(body, destination, {
    label,
    onBytes: (n) => {
      tracker.update(label, n);
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for (const [path, file] of entries) {
    const got = extracted.get(path);
    if (!got) throw mismatch('presence', path, 'in the archive', 'nothing');
    if (got.size !== file.size) throw mismatch('size', path, file.size, got.size);
    const expected = file.checksums.sha256;
    if (expected && expected !== got.sha256) throw mismatch('hash', path, expected, got.sha256);
  }
  const extra = [...extracted.keys()].filter((p) => !(p in artifact.files));
  if (extra.length) {
    throw new DebusineError(
      'bad-response',
      `The archive of ${label} holds files the artifact does not list: ${extra.join(', ')}`,
      {
        rule: 'download-verify',
      },
    );
  }
  tracker.update(label, total, 'done');
  return artifact;
}
