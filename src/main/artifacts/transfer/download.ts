/**
 * Downloads: one file (`files[path].url`), or a whole artifact, either as the tarball kept
 * on disk or unpacked into a destination folder (from the tarball, or file by file).
 *
 * The server is not trusted. Its file list is checked first (declared-files.ts); every
 * byte then goes to a staging folder inside the destination (staging.ts), each file
 * bounded by its declared size and hashed as it arrives, and the files are placed only
 * once every one has its declared size and SHA-256 (place-files.ts). A refused download
 * leaves the destination exactly as it was. The token is only sent to the server's own
 * origin, also across redirects (object storage URLs get no token).
 */
import { basename, dirname, join } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import type { ArtifactResponse } from '../../../shared/models';
import type { HttpTransport } from '../../api/http';
import { BoundedFile } from './bounded-file';
import { declaredFile, declaredFiles, type DeclaredFile } from './declared-files';
import {
  asDownloadError,
  cancelled,
  downloadError,
  subjectText,
  connectionBroke,
  endedEarly,
  hashMismatch,
  isAbort,
  wrongSize,
  type Subject,
} from './download-errors';
import { fetchBody } from './fetch-body';
import { checkPlacements, type Placement } from './place-files';
import { ProgressTracker, type ProgressListener } from './progress';
import { getArtifact, transportOf, type ClientLike } from './remote';
import { receiveArchive } from './safe-extract';
import { Staging, type StagingRecorder } from './staging';
import { discard } from '../../streams';

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Where the staging folder is recorded until it is gone (a crash leaves it listed). */
  recorder?: StagingRecorder;
}

export interface DownloadFileOptions extends DownloadOptions {
  /**
   * Told where the file is written while it arrives, before it is checked: for a reader
   * that follows it (the log viewer). What is read there is unverified until the download
   * resolves; the path is gone once it settles, placed (the same file, linked into the
   * destination) or removed.
   */
  onStaged?: (path: string) => void;
  /**
   * The most bytes the file may have: one the artifact declares larger is refused before
   * its first byte is asked for (a control file the app then reads whole).
   */
  maxSize?: number;
}

export interface DownloadArtifactOptions extends DownloadOptions {
  /** Keep `artifact-{id}.tar.gz` (checked member by member) instead of unpacking it. */
  tarball?: boolean;
  /** The kept tarball's file name, one the user chose, instead of `artifact-{id}.tar.gz`. */
  tarballName?: string;
  /** How to fetch when unpacking: `auto` follows the Python client's heuristic. */
  via?: 'auto' | 'archive' | 'files';
}

/**
 * Checks that the places are free, then runs `work` with a staging folder in `home` and
 * places what it staged; on any failure nothing of it stays.
 */
async function staged(
  target: {
    home: string;
    placements: Placement[];
    subject: Subject;
    subjectOf: (p: Placement) => Subject;
    signal: AbortSignal | undefined;
    recorder: StagingRecorder | undefined;
  },
  work: (staging: Staging) => Promise<void>,
): Promise<void> {
  const { home, placements, subjectOf } = target;
  await checkPlacements(home, placements, subjectOf);
  const staging = await Staging.open(home, target.recorder).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Cannot download ${subjectText(target.subject)} into ${home}: ${reason}`;
    throw downloadError('validation', target.subject, 'download-destination', message);
  });
  try {
    await work(staging);
    // A download cancelled as its last bytes arrived is not placed either.
    target.signal?.throwIfAborted();
    await staging.place(placements, subjectOf);
  } catch (error) {
    await staging.discard();
    throw asDownloadError(target.subject, error, target.signal);
  }
  await staging.close();
}

/** Fetches one declared file into `target`, refusing it at the first byte too many. */
async function fetchFile(
  http: HttpTransport,
  file: DeclaredFile,
  target: string,
  subject: Subject,
  onBytes: (n: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const { body, announced } = await fetchBody(http, file.url, subject, signal, file.size);
  if (announced !== undefined && announced !== file.size) {
    discard(body);
    throw wrongSize(subject, file.size, announced, 'the server');
  }
  const out = new BoundedFile(target, file.size, subject);
  try {
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        const wait = out.write(chunk);
        if (wait) await wait;
        onBytes(out.size);
      }
    } catch (error) {
      if (error instanceof DebusineError) throw error;
      if (signal?.aborted || isAbort(error)) throw cancelled(subject);
      throw connectionBroke(subject, out.size, file.size, error);
    }
    const { size, sha256 } = out.finish();
    await out.closed();
    if (size < file.size) throw endedEarly(subject, size, file.size);
    if (sha256 !== file.sha256) throw hashMismatch(subject, file.sha256, sha256);
  } catch (error) {
    await out.abort();
    discard(body);
    throw error;
  }
}

/** The transport, and the artifact's record (read from the server when given its id). */
async function reach(
  client: ClientLike,
  artifact: number | ArtifactResponse,
  signal?: AbortSignal,
) {
  const http = transportOf(client);
  return {
    http,
    artifact: typeof artifact === 'number' ? await getArtifact(client, artifact, signal) : artifact,
  };
}

/** Where a download of one file is staged and placed: `name` in `home`, all `subject`. */
function oneFile(home: string, name: string, subject: Subject, options: DownloadOptions) {
  const { signal, recorder } = options;
  return { home, placements: [[name]], subject, subjectOf: () => subject, signal, recorder };
}

export async function downloadArtifactFile(
  client: ClientLike,
  artifact: number | ArtifactResponse,
  pathInArtifact: string,
  destinationFile: string,
  options: DownloadFileOptions = {},
): Promise<ArtifactResponse> {
  const { http, artifact: response } = await reach(client, artifact, options.signal);
  const subject = { artifact: response.id, file: pathInArtifact };
  const file = declaredFile(response, pathInArtifact);
  if (!file) {
    throw new DebusineError(
      'not-found',
      `Artifact ${String(response.id)} has no file ${pathInArtifact}`,
      { operation: 'downloadArtifactFile', artifact: response.id, file: pathInArtifact },
    );
  }
  if (options.maxSize !== undefined && file.size > options.maxSize) {
    throw new DebusineError(
      'validation',
      `Artifact ${String(response.id)} declares ${pathInArtifact} as ${String(file.size)} bytes, ` +
        `more than the ${String(options.maxSize)} such a file may have: nothing was downloaded`,
      { rule: 'download.too-large', artifact: response.id, file: pathInArtifact },
    );
  }
  const name = basename(destinationFile);
  const tracker = new ProgressTracker([[pathInArtifact, file.size]], options.onProgress);
  const progress = (n: number) => {
    tracker.update(pathInArtifact, n);
  };
  const { signal } = options;
  await staged(oneFile(dirname(destinationFile), name, subject, options), async (staging) => {
    const path = join(staging.root, name);
    options.onStaged?.(path);
    await fetchFile(http, file, path, subject, progress, signal);
  });
  tracker.update(pathInArtifact, file.size, 'done');
  return response;
}

async function downloadTarball(
  http: HttpTransport,
  artifact: ArtifactResponse,
  destination: string,
  options: DownloadArtifactOptions,
): Promise<void> {
  const declared = declaredFiles(artifact);
  const name = options.tarballName ?? `artifact-${String(artifact.id)}.tar.gz`;
  const subject = { artifact: artifact.id, file: name };
  const tracker = new ProgressTracker([[name, declared.total]], options.onProgress);
  const { signal } = options;
  await staged(oneFile(destination, name, subject, options), async (staging) => {
    const { body } = await fetchBody(http, artifact.download_tar_gz_url, subject, signal);
    await receiveArchive(body, declared, {
      keep: { path: join(staging.root, name), name },
      ...(signal ? { signal } : {}),
      onBytes: (n) => {
        tracker.update(name, n);
      },
    });
  });
  tracker.update(name, declared.total, 'done');
}

export async function downloadArtifact(
  client: ClientLike,
  artifactId: number,
  destination: string,
  options: DownloadArtifactOptions = {},
): Promise<ArtifactResponse> {
  const { http, artifact } = await reach(client, artifactId, options.signal);
  if (options.tarball) {
    await downloadTarball(http, artifact, destination, options);
    return artifact;
  }
  const declared = declaredFiles(artifact);
  const files = [...declared.files.values()];
  const via =
    options.via && options.via !== 'auto'
      ? options.via
      : files.length === 1 ||
          files.some((f) => f.size > 20 * 1024 * 1024) ||
          declared.total >= 100 * 1024 * 1024
        ? 'files'
        : 'archive';
  const { signal } = options;
  const subjectOf = (p: Placement): Subject => ({ artifact: artifactId, file: p.join('/') });
  const placements = files.map((f) => f.path.split('/'));
  const subject = { artifact: artifactId };
  const { recorder } = options;
  const target = { home: destination, placements, subject, subjectOf, signal, recorder };
  await staged(target, async (staging) => {
    if (via === 'files') {
      const sizes = files.map((f): [string, number] => [f.path, f.size]);
      const tracker = new ProgressTracker(sizes, options.onProgress);
      for (const file of files) {
        const at = { artifact: artifactId, file: file.path };
        const target = await staging.prepare(file.path);
        const progress = (n: number) => {
          tracker.update(file.path, n);
        };
        await fetchFile(http, file, target, at, progress, signal);
        tracker.update(file.path, file.size, 'done');
      }
      return;
    }
    const label = `artifact ${String(artifactId)}`;
    const tracker = new ProgressTracker([[label, declared.total]], options.onProgress);
    const { body } = await fetchBody(http, artifact.download_tar_gz_url, subject, signal);
    await receiveArchive(body, declared, {
      staging,
      ...(signal ? { signal } : {}),
      onBytes: (n) => {
        tracker.update(label, n);
      },
    });
    tracker.update(label, declared.total, 'done');
  });
  return artifact;
}
