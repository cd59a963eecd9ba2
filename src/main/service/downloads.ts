/**
 * Downloads. Electron: main writes where the save dialog chose (downloads.file,
 * downloads.all), with progress events, until done or cancelled (downloads.cancel). Web
 * host: main cannot write where the browser user chooses, so downloads.link hands out a
 * one-time same-origin URL; the host's route calls `serve`, which fetches (and verifies)
 * the file or the tarball through main, where the token stays, and streams it to the
 * browser; the browser's own cancel stops the fetch.
 *
 * Every staging folder is in the journal until it is gone (staging-journal.ts), and `serve`
 * works in a folder of the app's data folder: what a crash cuts short is removed by
 * `sweep` at the next start.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { artifactPathProblem, downloadArtifact, downloadArtifactFile } from '../artifacts';
import { StagingJournal } from '../artifacts/transfer/staging-journal';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import type { DownloadJob } from '../../shared/contract';
import { DebusineError, serializeError } from '../../shared/errors';
import type { SessionProvider } from './session';
import type { StagedFiles } from './staged-files';

type Handlers = Pick<
  ServiceHandlers,
  'downloads.file' | 'downloads.all' | 'downloads.link' | 'downloads.cancel'
>;

export const DOWNLOAD_ROUTE = '/download/';
const LINK_TTL_MS = 5 * 60_000;

interface Link {
  artifactId: number;
  path: string | undefined;
  serverId: string | null;
  expires: number;
}

export class Downloads {
  readonly #links = new Map<string, Link>();
  readonly #session: SessionProvider;
  readonly #files: StagedFiles;
  readonly #emit: EmitEvent;
  readonly #transport: 'electron' | 'web';
  readonly #journal: StagingJournal;
  /** Where `serve` downloads before streaming to the browser (the app's own folder). */
  readonly #scratch: string;
  readonly #running = new Map<
    string,
    { job: DownloadJob; abort: AbortController; settled: Promise<void> }
  >();

  constructor(options: {
    session: SessionProvider;
    files: StagedFiles;
    emit: EmitEvent;
    transport: 'electron' | 'web';
    dataDir: string;
  }) {
    this.#session = options.session;
    this.#files = options.files;
    this.#emit = options.emit;
    this.#transport = options.transport;
    this.#journal = new StagingJournal(join(options.dataDir, 'downloads-under-way.json'));
    this.#scratch = join(options.dataDir, 'downloads');
  }

  /**
   * Removes what downloads of an earlier run left (cut short by a crash or a power cut):
   * the staging folders the journal names, and `serve`'s folder. Before any download.
   */
  async sweep(): Promise<string[]> {
    await rm(this.#scratch, { recursive: true, force: true });
    return this.#journal.sweep();
  }

  /** Stops every download under way (the app is closing); each leaves nothing behind. */
  async close(): Promise<void> {
    for (const { abort } of this.#running.values()) abort.abort();
    await Promise.all([...this.#running.values()].map(({ settled }) => settled));
  }

  #job(
    artifactId: number,
    work: (
      signal: AbortSignal,
      onBytes: (n: number, total: number | null) => void,
    ) => Promise<void>,
  ): DownloadJob {
    const job: DownloadJob = {
      jobId: randomUUID(),
      artifactId,
      state: 'running',
      receivedBytes: 0,
      totalBytes: null,
      error: null,
    };
    const abort = new AbortController();
    const settled = work(abort.signal, (n, total) => {
      job.receivedBytes = n;
      job.totalBytes = total;
      this.#emit('download.progress', { ...job });
    })
      .then(
        () => {
          job.state = 'completed';
        },
        (error: unknown) => {
          const serialized = serializeError(error);
          job.state = serialized.code === 'cancelled' ? 'cancelled' : 'failed';
          job.error = serialized;
        },
      )
      .finally(() => {
        this.#running.delete(job.jobId);
        this.#emit('download.finished', { ...job });
      });
    this.#running.set(job.jobId, { job, abort, settled });
    return { ...job };
  }

  /**
   * The path of a file in an artifact, as the renderer names it: checked here too, so
   * that a bad one is refused at once, and its last segment is always a plain file name.
   */
  #checkPath(path: string): void {
    const problem = artifactPathProblem(path);
    if (problem) {
      throw new DebusineError('validation', `${JSON.stringify(path)} ${problem}`, {
        field: 'path',
        rule: 'artifact-path',
      });
    }
  }

  #browserOnly(channel: string): DebusineError {
    return new DebusineError(
      'unsupported',
      `${channel} is not available in the browser: use downloads.link and let the browser save the file`,
      { operation: channel },
    );
  }

  /** Serves one link (the web host's `GET /download/<token>`); the link is used up. */
  async serve(token: string, res: ServerResponse): Promise<void> {
    const link = this.#links.get(token);
    this.#links.delete(token);
    if (
      !link ||
      link.expires < Date.now() ||
      link.serverId !== (this.#session.active()?.id ?? null)
    ) {
      res
        .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('This download link has expired.');
      return;
    }
    const client = this.#session.client();
    await mkdir(this.#scratch, { recursive: true, mode: 0o700 });
    const dir = await mkdtemp(join(this.#scratch, 'link-'));
    // The browser cancelled its download (or the tab went away): stop fetching for it.
    const abort = new AbortController();
    const stop = (): void => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', stop);
    const options = { signal: abort.signal, recorder: this.#journal };
    try {
      let file: string;
      let name: string;
      if (link.path !== undefined) {
        name = basename(link.path);
        file = join(dir, 'file');
        await downloadArtifactFile(client, link.artifactId, link.path, file, options);
      } else {
        name = `artifact-${String(link.artifactId)}.tar.gz`;
        await downloadArtifact(client, link.artifactId, dir, { ...options, tarball: true });
        file = join(dir, name);
      }
      const size = (await stat(file)).size;
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(size),
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      await pipeline(createReadStream(file), res);
    } catch (error) {
      if (!res.headersSent) {
        const e = serializeError(error);
        res
          .writeHead(e.code === 'not-found' ? 404 : 502, {
            'Content-Type': 'text/plain; charset=utf-8',
          })
          .end(e.message);
      } else res.destroy();
    } finally {
      res.off('close', stop);
      await rm(dir, { recursive: true, force: true });
    }
  }

  handlers(): Handlers {
    return {
      'downloads.file': async ({ artifactId, path, destinationId }) => {
        if (this.#transport === 'web') return Promise.reject(this.#browserOnly('downloads.file'));
        this.#checkPath(path);
        const destination = this.#files.destination(destinationId);
        const target =
          destination.kind === 'directory'
            ? join(destination.path, basename(path))
            : destination.path;
        const client = this.#session.client();
        return Promise.resolve(
          this.#job(artifactId, async (signal, onBytes) => {
            await downloadArtifactFile(client, artifactId, path, target, {
              signal,
              recorder: this.#journal,
              onProgress: (e) => {
                if (e.type === 'file') onBytes(e.bytes, e.total);
              },
            });
          }),
        );
      },
      'downloads.all': async ({ artifactId, destinationId, tarball }) => {
        if (this.#transport === 'web') return Promise.reject(this.#browserOnly('downloads.all'));
        const destination = this.#files.destination(destinationId);
        if (destination.kind !== 'directory') {
          return Promise.reject(
            new DebusineError('validation', 'Choose a folder for a whole artifact'),
          );
        }
        const client = this.#session.client();
        return Promise.resolve(
          this.#job(artifactId, async (signal, onBytes) => {
            await downloadArtifact(client, artifactId, destination.path, {
              tarball,
              signal,
              recorder: this.#journal,
              onProgress: (e) => {
                if (e.type === 'total') onBytes(e.bytes, e.total || null);
              },
            });
          }),
        );
      },
      'downloads.cancel': ({ jobId }) => {
        const running = this.#running.get(jobId);
        if (!running) {
          return Promise.reject(
            new DebusineError('not-found', 'This download is not running (it ended already)', {
              rule: 'download-job',
            }),
          );
        }
        running.abort.abort();
        return running.settled.then(() => ({ ...running.job }));
      },
      'downloads.link': async ({ artifactId, path }) => {
        if (this.#transport !== 'web') {
          return Promise.reject(
            new DebusineError(
              'unsupported',
              'downloads.link is for the browser: use downloads.chooseDestination',
              {
                operation: 'downloads.link',
              },
            ),
          );
        }
        if (path !== undefined) this.#checkPath(path);
        this.#session.client();
        const token = randomBytes(24).toString('base64url');
        const expires = Date.now() + LINK_TTL_MS;
        this.#links.set(token, {
          artifactId,
          path,
          serverId: this.#session.active()?.id ?? null,
          expires,
        });
        for (const [key, l] of this.#links) if (l.expires < Date.now()) this.#links.delete(key);
        return Promise.resolve({
          url: `${DOWNLOAD_ROUTE}${token}`,
          name: path !== undefined ? basename(path) : `artifact-${String(artifactId)}.tar.gz`,
          expiresAt: new Date(expires).toISOString(),
        });
      },
    };
  }
}
