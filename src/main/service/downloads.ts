/**
 * Downloads, of the server a page names. Electron: downloads.save asks where in main's own
 * dialog, then main writes there, with progress events, until done or cancelled
 * (downloads.cancel). Web host: main cannot write where the browser user chooses, so the
 * page answers downloads.save itself with downloads.link, a one-time same-origin URL; the
 * host's route calls `serve`, which fetches (and verifies) the file or the tarball through
 * main, where the token stays, and streams it to the browser; the browser's own cancel
 * stops the fetch.
 *
 * A request names the server profile of the page that asks: an artifact id means another
 * artifact on another server, so one naming any but the active server is refused before
 * anything is asked or written, and again after the dialog, which a switch of server may
 * have outlasted.
 *
 * Every staging folder is in the journal until it is gone (staging-journal.ts), and `serve`
 * works in a folder of the app's data folder: what a crash cuts short is removed by
 * `sweep` at the next start.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { artifactPathProblem, downloadArtifact, downloadArtifactFile } from '../artifacts';
import { StagingJournal } from '../artifacts/transfer/staging-journal';
import type { Caller } from '../bridge/caller';
import type { ServiceHandlers } from '../bridge/dispatch';
import { baseName } from '../../shared/base-name';
import type { DownloadJob, ServerSummary } from '../../shared/contract';
import { DebusineError, serializeError } from '../../shared/errors';
import { notOnThisHost, type HostCapabilities } from './host';
import { activeServerNamed, type SessionProvider } from './session';

type Handlers = Pick<ServiceHandlers, 'downloads.save' | 'downloads.link' | 'downloads.cancel'>;

export const DOWNLOAD_ROUTE = '/download/';
const LINK_TTL_MS = 5 * 60_000;

interface Link {
  artifactId: number;
  path: string | undefined;
  serverId: string;
  expires: number;
}

/** The name the browser or the save dialog suggests for an artifact's tarball. */
function tarballName(artifactId: number): string {
  return `artifact-${String(artifactId)}.tar.gz`;
}

export class Downloads {
  readonly #links = new Map<string, Link>();
  readonly #session: SessionProvider;
  readonly #choose: HostCapabilities['chooseDestination'];
  readonly #transport: 'electron' | 'web';
  readonly #journal: StagingJournal;
  /** Where `serve` downloads before streaming to the browser (the app's own folder). */
  readonly #scratch: string;
  readonly #running = new Map<
    string,
    { job: DownloadJob; abort: AbortController; settled: Promise<void>; caller: Caller }
  >();

  constructor(options: {
    session: SessionProvider;
    /** The host's save dialog; without it, downloads.save is the page's to answer. */
    chooseDestination?: HostCapabilities['chooseDestination'];
    transport: 'electron' | 'web';
    dataDir: string;
  }) {
    this.#session = options.session;
    this.#choose = options.chooseDestination;
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

  /** Runs a download; its progress and its end are told to the page that asked for it alone. */
  #job(
    caller: Caller,
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
      caller.emit('download.progress', { ...job });
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
        caller.emit('download.finished', { ...job });
      });
    this.#running.set(job.jobId, { job, abort, settled, caller });
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

  /** The active server, when it is the one the page names (activeServerNamed). */
  #activeAs(profileId: string): ServerSummary {
    return activeServerNamed(this.#session, profileId, {
      rule: 'download-server',
      message: (active) =>
        `This download is of another server than the active one (${active}): switch back to download it.`,
    });
  }

  /** Serves one link (the web host's `GET /download/<token>`); the link is used up. */
  async serve(token: string, res: ServerResponse): Promise<void> {
    const link = this.#links.get(token);
    this.#links.delete(token);
    if (!link || link.expires < Date.now() || link.serverId !== this.#session.active()?.id) {
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
        name = baseName(link.path);
        file = join(dir, 'file');
        await downloadArtifactFile(client, link.artifactId, link.path, file, options);
      } else {
        name = tarballName(link.artifactId);
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

  /**
   * Asks the host's dialog where, for the page's server; null when the user closed it. The
   * server is checked before the dialog opens, and again once it is closed.
   */
  async #chooseFor(
    profileId: string,
    options: { kind: 'file' | 'directory'; suggestedName?: string },
  ): Promise<string | null> {
    if (!this.#choose) {
      throw notOnThisHost('downloads.save', 'the page hands a downloads.link to the browser');
    }
    this.#activeAs(profileId);
    const path = await this.#choose(options);
    if (path !== null) this.#activeAs(profileId);
    return path;
  }

  /** One file of an artifact, written to `target`. */
  #fileJob(caller: Caller, artifactId: number, path: string, target: string): DownloadJob {
    const client = this.#session.client();
    return this.#job(caller, artifactId, async (signal, onBytes) => {
      await downloadArtifactFile(client, artifactId, path, target, {
        signal,
        recorder: this.#journal,
        onProgress: (e) => {
          if (e.type === 'file') onBytes(e.bytes, e.total);
        },
      });
    });
  }

  /** A whole artifact in `folder`: unpacked, or as its tarball named `tarball`. */
  #artifactJob(caller: Caller, artifactId: number, folder: string, tarball?: string): DownloadJob {
    const client = this.#session.client();
    return this.#job(caller, artifactId, async (signal, onBytes) => {
      await downloadArtifact(client, artifactId, folder, {
        ...(tarball === undefined ? {} : { tarball: true, tarballName: tarball }),
        signal,
        recorder: this.#journal,
        onProgress: (e) => {
          if (e.type === 'total') onBytes(e.bytes, e.total || null);
        },
      });
    });
  }

  handlers(): Handlers {
    return {
      'downloads.save': async (args, caller) => {
        if (args.what === 'file') {
          this.#checkPath(args.path);
          const target = await this.#chooseFor(args.server, {
            kind: 'file',
            suggestedName: baseName(args.path),
          });
          if (target === null) return null;
          const job = this.#fileJob(caller, args.artifactId, args.path, target);
          return { savedBy: 'app', destination: basename(target), jobs: [job] };
        }
        if (args.what === 'tarball') {
          const target = await this.#chooseFor(args.server, {
            kind: 'file',
            suggestedName: tarballName(args.artifactId),
          });
          if (target === null) return null;
          const name = basename(target);
          if (name === '') {
            throw new DebusineError('validation', 'Choose a file to save the tarball as');
          }
          const job = this.#artifactJob(caller, args.artifactId, dirname(target), name);
          return { savedBy: 'app', destination: name, jobs: [job] };
        }
        const folder = await this.#chooseFor(args.server, { kind: 'directory' });
        if (folder === null) return null;
        const jobs = [...new Set(args.artifactIds)].map((id) =>
          this.#artifactJob(caller, id, folder),
        );
        return { savedBy: 'app', destination: basename(folder), jobs };
      },
      'downloads.cancel': ({ jobId }, caller) => {
        const running = this.#running.get(jobId);
        // Another page's download is not this page's to stop: as if there were none.
        if (running?.caller !== caller) {
          return Promise.reject(
            new DebusineError('not-found', 'This download is not running (it ended already)', {
              rule: 'download-job',
            }),
          );
        }
        running.abort.abort();
        return running.settled.then(() => ({ ...running.job }));
      },
      'downloads.link': async ({ server, artifactId, path }) => {
        if (this.#transport !== 'web') {
          return Promise.reject(
            new DebusineError(
              'unsupported',
              'downloads.link is for the browser: use downloads.save',
              {
                operation: 'downloads.link',
              },
            ),
          );
        }
        if (path !== undefined) this.#checkPath(path);
        this.#activeAs(server);
        this.#session.client();
        const token = randomBytes(24).toString('base64url');
        const expires = Date.now() + LINK_TTL_MS;
        this.#links.set(token, { artifactId, path, serverId: server, expires });
        for (const [key, l] of this.#links) if (l.expires < Date.now()) this.#links.delete(key);
        return Promise.resolve({
          url: `${DOWNLOAD_ROUTE}${token}`,
          name: path !== undefined ? baseName(path) : tarballName(artifactId),
          expiresAt: new Date(expires).toISOString(),
        });
      },
    };
  }
}
