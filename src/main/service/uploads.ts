/**
 * Uploads: a draft becomes an artifact on the server, then its files are sent,
 * with per-file and total progress. Every job is persisted in `{dataDir}/uploads` (the
 * artifacts module's UploadJobStore), so that pause, resume, retry and a restart all go
 * through one path: resumeUploads for that one job, which probes what the server has.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  createArtifact,
  resumeUploads,
  UploadJobStore,
  validateLocalArtifact,
  type UploadJob as StoredJob,
} from '../artifacts';
import type { DebusineClient } from '../api/client';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import type { UploadJob } from '../../shared/contract';
import { DebusineError, serializeError } from '../../shared/errors';
import type { DraftStore } from './drafts';
import type { SessionProvider } from './session';

type Handlers = Pick<
  ServiceHandlers,
  | 'uploads.start'
  | 'uploads.list'
  | 'uploads.pause'
  | 'uploads.resume'
  | 'uploads.cancel'
  | 'uploads.retry'
>;

interface Entry {
  view: UploadJob;
  stored: StoredJob | null;
  controller: AbortController | null;
  running: Promise<void> | null;
}

function viewOf(job: StoredJob, draftId: string | null, resumed: boolean): UploadJob {
  const files = Object.entries(job.files).map(([path, f]) => {
    const done = job.done.includes(path);
    return {
      path,
      sentBytes: done ? f.size : 0,
      totalBytes: f.size,
      state: done ? ('done' as const) : ('pending' as const),
    };
  });
  // The file that names the artifact: an upload's .changes before the .dsc it lists, and
  // so on down to any file.
  const paths = Object.keys(job.files);
  const main =
    ['.changes', '.dsc', '.build', '.deb', '.udeb']
      .map((ending) => paths.find((p) => p.endsWith(ending)))
      .find((p) => p !== undefined) ??
    paths[0] ??
    `artifact ${String(job.artifactId)}`;
  return {
    jobId: job.id,
    draftId,
    state: job.state === 'failed' ? 'failed' : 'paused',
    category: job.category,
    workspace: job.workspace,
    label: basename(main),
    sentBytes: files.reduce((s, f) => s + f.sentBytes, 0),
    totalBytes: files.reduce((s, f) => s + f.totalBytes, 0),
    files,
    speed: 0,
    eta: null,
    artifactId: job.artifactId,
    createdAt: job.createdAt,
    resumed,
    error: job.error === null ? null : { code: 'validation', message: job.error },
  };
}

export class UploadManager {
  readonly store: UploadJobStore;
  readonly #entries = new Map<string, Entry>();
  readonly #session: SessionProvider;
  readonly #drafts: DraftStore;
  readonly #emit: EmitEvent;

  constructor(options: {
    dir: string;
    session: SessionProvider;
    drafts: DraftStore;
    emit: EmitEvent;
  }) {
    this.store = new UploadJobStore(options.dir);
    this.#session = options.session;
    this.#drafts = options.drafts;
    this.#emit = options.emit;
  }

  #entry(jobId: string): Entry {
    const entry = this.#entries.get(jobId);
    if (!entry) throw new DebusineError('not-found', `No upload ${JSON.stringify(jobId)}`);
    return entry;
  }

  #clientFor(job: StoredJob): DebusineClient | undefined {
    try {
      const client = this.#session.client();
      const active = this.#session.active();
      return client.apiUrl === job.apiUrl && (active?.scope ?? null) === job.scope
        ? client
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Lists the jobs a previous run left, and continues those of the active server. */
  async resumeAtStartup(): Promise<void> {
    for (const job of await this.store.list()) {
      if (this.#entries.has(job.id)) continue;
      const entry: Entry = {
        view: viewOf(job, null, true),
        stored: job,
        controller: null,
        running: null,
      };
      this.#entries.set(job.id, entry);
      if (job.state !== 'failed' && this.#clientFor(job)) this.#run(entry);
    }
  }

  #progress(entry: Entry, file: string | null): void {
    const files = entry.view.files;
    entry.view.sentBytes = files.reduce((s, f) => s + f.sentBytes, 0);
    this.#emit('upload.progress', { ...structuredClone(entry.view), file });
  }

  #finish(entry: Entry, state: UploadJob['state'], error: unknown): void {
    entry.view.state = state;
    entry.view.speed = 0;
    entry.view.eta = state === 'completed' ? 0 : null;
    entry.view.error = error === null ? null : serializeError(error);
    this.#emit('upload.finished', structuredClone(entry.view));
  }

  #run(entry: Entry): void {
    const stored = entry.stored;
    if (!stored) return;
    const client = this.#clientFor(stored);
    if (!client) {
      entry.view.state = 'paused';
      entry.view.error = serializeError(
        new DebusineError('auth', 'This upload belongs to another server: switch to it to resume'),
      );
      return;
    }
    const controller = new AbortController();
    entry.controller = controller;
    entry.view.state = 'running';
    entry.view.error = null;
    this.#progress(entry, null);
    entry.running = (async () => {
      const [outcome] = await resumeUploads(
        this.store,
        (j) => (j.id === stored.id ? client : undefined),
        {
          signal: controller.signal,
          includeFailed: true,
          onProgress: (event) => {
            if (event.type === 'file') {
              const f = entry.view.files.find((x) => x.path === event.path);
              if (f) {
                f.sentBytes = event.state === 'skipped' ? f.totalBytes : event.bytes;
                f.state = event.state;
              }
              this.#progress(entry, event.path);
            } else {
              entry.view.speed = event.speed;
              entry.view.eta = event.eta;
              this.#progress(entry, null);
            }
          },
        },
      );
      if (outcome?.error) throw outcome.error;
      for (const f of entry.view.files) {
        f.sentBytes = f.totalBytes;
        f.state = f.state === 'skipped' ? 'skipped' : 'done';
      }
      entry.view.sentBytes = entry.view.totalBytes;
      this.#finish(entry, 'completed', null);
      await this.#cleanup(entry);
    })()
      .catch((error: unknown) => {
        if (controller.signal.aborted) {
          // Paused or cancelled by the user: the handler already set the state.
          if (entry.view.state === 'running') entry.view.state = 'paused';
          return;
        }
        const code = error instanceof DebusineError ? error.code : 'internal';
        // A lost server leaves the job resumable; anything else needs the user.
        this.#finish(
          entry,
          ['network', 'timeout', 'server'].includes(code) ? 'paused' : 'failed',
          error,
        );
      })
      .finally(() => {
        entry.controller = null;
        entry.running = null;
      });
  }

  async #cleanup(entry: Entry): Promise<void> {
    if (entry.stored) await this.store.remove(entry.stored.id);
    if (entry.view.draftId !== null) await this.#drafts.discard(entry.view.draftId);
  }

  async #stop(entry: Entry): Promise<void> {
    entry.controller?.abort();
    await entry.running;
  }

  async start(args: {
    draftId: string;
    workspace: string | null;
    workRequest: number | null;
    expireAt: string | null;
  }): Promise<UploadJob> {
    const draft = this.#drafts.get(args.draftId);
    const artifact = draft.artifact;
    if (!artifact || !draft.view.ready) {
      throw new DebusineError(
        'validation',
        draft.view.problems[0]?.message ?? 'This draft cannot be uploaded yet',
        { rule: draft.view.problems[0]?.rule ?? 'draft' },
      );
    }
    validateLocalArtifact(artifact, { excludeFiles: draft.excludedNames });
    const client = this.#session.client();
    const request = await artifact.createRequest({
      workspace: args.workspace ?? this.#session.active()?.defaultWorkspace ?? null,
      workRequest: args.workRequest,
      expireAt: args.expireAt,
    });
    const created = await createArtifact(client, request);
    const files: StoredJob['files'] = {};
    for (const path of artifact.paths()) {
      const local = artifact.files.get(path);
      if (local === undefined) continue;
      const info = await stat(local);
      files[path] = { local, size: info.size, mtimeMs: info.mtimeMs };
    }
    const stored = await this.store.create({
      apiUrl: client.apiUrl,
      scope: this.#session.active()?.scope ?? null,
      artifactId: created.id,
      workspace: created.workspace,
      category: created.category,
      files,
    });
    // Files the server already has (deduplicated) count as done from the start.
    stored.done = Object.keys(files).filter((p) => !created.files_to_upload.includes(p));
    await this.store.save(stored);
    const entry: Entry = {
      view: viewOf(stored, args.draftId, false),
      stored,
      controller: null,
      running: null,
    };
    for (const f of entry.view.files) if (stored.done.includes(f.path)) f.state = 'skipped';
    this.#entries.set(stored.id, entry);
    this.#run(entry);
    return structuredClone(entry.view);
  }

  async close(): Promise<void> {
    for (const entry of this.#entries.values()) {
      entry.controller?.abort();
      await entry.running;
    }
  }

  handlers(): Handlers {
    return {
      'uploads.start': (args) => this.start(args),
      'uploads.list': () =>
        Promise.resolve(
          [...this.#entries.values()]
            .map((e) => structuredClone(e.view))
            .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
        ),
      'uploads.pause': async ({ jobId }) => {
        const entry = this.#entry(jobId);
        if (entry.view.state === 'running' || entry.view.state === 'queued') {
          entry.view.state = 'paused';
          await this.#stop(entry);
          this.#progress(entry, null);
        }
        return structuredClone(entry.view);
      },
      'uploads.resume': async ({ jobId }) => {
        const entry = this.#entry(jobId);
        if (entry.view.state === 'paused') this.#run(entry);
        return Promise.resolve(structuredClone(entry.view));
      },
      'uploads.retry': async ({ jobId }) => {
        const entry = this.#entry(jobId);
        if (entry.view.state !== 'failed' && entry.view.state !== 'paused') {
          throw new DebusineError('conflict', `The upload is ${entry.view.state}, not failed`);
        }
        if (entry.stored) {
          const fresh = await this.store.get(entry.stored.id);
          if (fresh) entry.stored = { ...fresh, state: 'uploading', error: null };
        }
        this.#run(entry);
        return structuredClone(entry.view);
      },
      'uploads.cancel': async ({ jobId }) => {
        const entry = this.#entry(jobId);
        if (entry.view.state === 'completed' || entry.view.state === 'cancelled') {
          return structuredClone(entry.view);
        }
        entry.view.state = 'cancelled';
        await this.#stop(entry);
        await this.#cleanup(entry);
        this.#finish(entry, 'cancelled', null);
        return structuredClone(entry.view);
      },
    };
  }
}
