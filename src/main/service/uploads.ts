/**
 * Uploads: a draft becomes a job of the upload engine (artifacts/transfer/upload-engine.ts): its
 * artifacts (for a .changes, the upload and its packages, as dput-ng makes them), their
 * files with per-file and total progress, the relations, and the workflow dput would start.
 * Every job is recorded in `{dataDir}/uploads`, so that pause, resume, retry and a restart
 * all go on from the last recorded step.
 */
import { basename } from 'node:path';
import type { LocalArtifact } from '../artifacts';
import {
  labelOf,
  planParts,
  runUploadJob,
  UploadJobStore,
  validateLocalArtifact,
  type UploadedFiles,
  type UploadJob as StoredJob,
  type UploadPart,
} from '../artifacts';
import type { DebusineClient } from '../api/client';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import type { UploadJob, WorkflowProposal, WorkRequestResponse } from '../../shared/contract';
import type { Publications } from '../archives/publications';
import { changesFieldsOf } from '../artifacts/local/changes-set';
import { fieldString } from '../artifacts/local/debian-files';
import type { DputPlanner } from '../dput/plan';
import { DebusineError, serializeError } from '../../shared/errors';
import { draftKey, requireHeldDraft, type DraftStore } from './drafts';
import type { SessionProvider } from './session';
import { serverKey, type UploadMade, type UploadsMade } from '../signing/uploads-made';

type Handlers = Pick<
  ServiceHandlers,
  | 'uploads.start'
  | 'uploads.list'
  | 'uploads.getSettings'
  | 'uploads.setSettings'
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

/**
 * What a completed job's Debian upload contained: the source, version and Distribution of
 * its .changes, and every file any of its parts sent or named (the source package's part
 * names the files its .dsc lists, an orig tarball left on the server included).
 */
export function uploadMadeOf(job: StoredJob, server: string, madeAt: string): UploadMade | null {
  const upload = job.parts.find((p) => p.category === 'debian:upload');
  if (!upload?.request || upload.artifactId === null) return null;
  const fields = upload.request.data.changes_fields;
  const field = (name: string): string | undefined => {
    if (typeof fields !== 'object' || fields === null) return undefined;
    const value = (fields as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  };
  const source = field('Source')?.split(' ')[0];
  const version = field('Version');
  const distribution = field('Distribution');
  if (source === undefined || version === undefined || distribution === undefined) return null;
  const files: Record<string, string> = {};
  for (const part of job.parts) {
    for (const [path, file] of Object.entries(part.request?.files ?? {})) {
      const sha256 = file.checksums.sha256;
      if (sha256 !== undefined) files[path] = sha256;
    }
  }
  return {
    server,
    workspace: job.workspace,
    madeAt,
    artifactId: upload.artifactId,
    workflowId: job.workflowId,
    source,
    version,
    distribution,
    files,
  };
}

function localFilesOf(job: StoredJob): string[] {
  return job.parts.flatMap((part) => Object.values(part.files).map((f) => f.local));
}

/** The job's files by path, once each: a .changes' packages share the upload's files. */
function filesOf(job: StoredJob): UploadJob['files'] {
  const seen = new Map<string, UploadJob['files'][number]>();
  for (const part of job.parts) {
    const confirmed = new Set(part.done);
    for (const [path, f] of Object.entries(part.files)) {
      const done = confirmed.has(path);
      const known = seen.get(path);
      if (known) {
        if (!done) {
          known.state = 'pending';
          known.sentBytes = 0;
        }
        continue;
      }
      seen.set(path, {
        path,
        sentBytes: done ? f.size : 0,
        totalBytes: f.size,
        state: done ? 'done' : 'pending',
      });
    }
  }
  return [...seen.values()];
}

function partsOf(job: StoredJob): UploadJob['parts'] {
  return job.parts.map((part) => {
    const confirmed = new Set(part.done);
    return {
      category: part.category,
      label: part.label,
      artifactId: part.artifactId,
      missing: part.missing,
      state:
        part.artifactId === null
          ? 'waiting'
          : Object.keys(part.files).every((p) => confirmed.has(p))
            ? 'done'
            : 'sending',
    };
  });
}

/**
 * What the engine's steps change in the view (artifacts made, relations, the workflow):
 * read after each step, without walking the files again, which progress keeps itself.
 */
function stepsOf(
  job: StoredJob,
): Pick<UploadJob, 'workspace' | 'artifactId' | 'parts' | 'relations' | 'workflow'> {
  return {
    workspace: job.workspace,
    artifactId: job.parts[0]?.artifactId ?? null,
    parts: partsOf(job),
    relations: {
      made: job.relate ? job.related.length * 2 : 0,
      total: job.relate ? (job.parts.length - 1) * 2 : 0,
    },
    workflow: job.workflow
      ? {
          template: job.workflow.template,
          workspace: job.workflow.workspace,
          distribution: job.workflow.distribution,
          workRequestId: job.workflowId,
          suite: job.workflow.publish?.suite ?? null,
        }
      : null,
  };
}

/**
 * The workflow that publishes an upload to one of the user's suites: the suite must be one
 * the draft's proposal offers (a suite of a repository the app knows, with its
 * publish-to template), and the package is named from the .changes for the notification
 * that says it is published.
 */
function publicationPlan(
  upload: LocalArtifact,
  proposal: WorkflowProposal | null,
  to: { workspace: string; suite: string },
): NonNullable<StoredJob['workflow']> {
  const target = proposal?.targets.find(
    (t) => t.workspace === to.workspace && t.suite === to.suite,
  );
  if (!proposal || !target) {
    throw new DebusineError(
      'validation',
      `${to.suite} in ${to.workspace} is not a suite of your repositories that this upload can be published to`,
      { rule: 'dput.target' },
    );
  }
  const fields = changesFieldsOf(upload);
  const source = fieldString(fields, 'Source')?.split(/\s/)[0] ?? '';
  const version = fieldString(fields, 'Version') ?? '';
  if (source === '' || version === '') {
    throw new DebusineError(
      'validation',
      'The .changes names no Source or no Version: it cannot be published',
      { rule: 'dput.target' },
    );
  }
  return {
    template: target.template,
    workspace: target.workspace,
    data: proposal.data,
    distribution: proposal.distribution,
    source: `the repository ${target.workspace}`,
    publish: { suite: target.suite, source, version },
  };
}

function viewOf(job: StoredJob, draftId: string | null, resumed: boolean): UploadJob {
  const files = filesOf(job);
  const first = job.parts[0];
  return {
    ...stepsOf(job),
    jobId: job.id,
    draftId,
    state: job.state === 'failed' ? 'failed' : 'paused',
    category: first?.category ?? '',
    label: basename(first?.label ?? labelOf(files.map((f) => f.path))),
    sentBytes: files.reduce((s, f) => s + f.sentBytes, 0),
    totalBytes: files.reduce((s, f) => s + f.totalBytes, 0),
    files,
    speed: 0,
    eta: null,
    apiUrl: job.apiUrl,
    createdAt: job.createdAt,
    resumed,
    error: job.error === null ? null : { code: 'validation', message: job.error },
    retryable: !job.final,
  };
}

export class UploadManager {
  readonly store: UploadJobStore;
  readonly #entries = new Map<string, Entry>();
  readonly #session: SessionProvider;
  readonly #drafts: DraftStore;
  readonly #emit: EmitEvent;
  readonly #planner: DputPlanner | undefined;
  readonly #started: ((workflow: WorkRequestResponse) => Promise<unknown>) | undefined;
  readonly #uploadedFiles: UploadedFiles | undefined;
  readonly #uploadsMade: UploadsMade | undefined;
  readonly #publications: Publications | undefined;

  constructor(options: {
    dir: string;
    session: SessionProvider;
    drafts: DraftStore;
    emit: EmitEvent;
    /** The dput-ng profiles and the setting of whether to start their workflow. */
    planner?: DputPlanner;
    /** Watches a workflow the job started, as the app's other starts are. */
    started?: (workflow: WorkRequestResponse) => Promise<unknown>;
    /** The files the app uploaded, which remote files are checked against. */
    uploadedFiles?: UploadedFiles;
    /** What each Debian upload contained, which signing compares with. */
    uploadsMade?: UploadsMade;
    /** The publications to the user's suites, told when their suite is updated. */
    publications?: Publications;
  }) {
    this.store = new UploadJobStore(options.dir);
    this.#session = options.session;
    this.#drafts = options.drafts;
    this.#emit = options.emit;
    this.#planner = options.planner;
    this.#started = options.started;
    this.#uploadedFiles = options.uploadedFiles;
    this.#uploadsMade = options.uploadsMade;
    this.#publications = options.publications;
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
    stored.state = 'uploading';
    stored.error = null;
    this.#progress(entry, null);
    entry.running = (async () => {
      await runUploadJob(client, stored, this.store, {
        signal: controller.signal,
        onWorkflow: async (workflow) => {
          const plan = stored.workflow;
          if (plan?.publish && this.#publications) {
            // Before it is watched: the suite's update cannot complete before it is recorded.
            await this.#publications.record({
              server: serverKey(stored.apiUrl, stored.scope),
              rootId: workflow.id,
              workspace: plan.workspace,
              ...plan.publish,
            });
          }
          await this.#started?.(workflow);
        },
        onStep: (job) => {
          Object.assign(entry.view, stepsOf(job));
          this.#progress(entry, null);
        },
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
      });
      for (const f of entry.view.files) {
        f.sentBytes = f.totalBytes;
        f.state = f.state === 'skipped' ? 'skipped' : 'done';
      }
      entry.view.sentBytes = entry.view.totalBytes;
      for (const part of entry.view.parts) part.state = 'done';
      await this.#remember(stored);
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
        entry.view.retryable = !stored.final;
        Object.assign(entry.view, stepsOf(stored));
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

  /**
   * What a completed job stored, so that later uploads may name it as remote files, and
   * what a Debian upload contained, so that signing can tell it from another.
   */
  async #remember(job: StoredJob): Promise<void> {
    const server = serverKey(job.apiUrl, job.scope);
    const made = uploadMadeOf(job, server, new Date().toISOString());
    // Not noted down, the upload is shown as one this app did not make: asked, not lost.
    if (made) await this.#uploadsMade?.record(made).catch(() => undefined);
    for (const part of job.parts) {
      if (part.artifactId === null || !part.request) continue;
      const files = Object.values(part.request.files).map((f) => ({
        sha256: f.checksums.sha256 ?? '',
        size: f.size,
      }));
      // A file the app could not note down is one remote file fewer later, nothing worse.
      await this.#uploadedFiles
        ?.record(server, job.workspace, part.artifactId, files)
        .catch(() => undefined);
    }
  }

  /**
   * Files a part declares remote must be complete on the server before anything is
   * created; those another part of the same job sends are not remote to the server.
   */
  async #confirmRemoteFiles(
    client: DebusineClient,
    parts: readonly UploadPart[],
    workspace: string,
  ): Promise<void> {
    const sent = new Set<string>();
    for (const part of parts) {
      for (const path of Object.keys(part.files)) {
        const sha256 = part.request?.files[path]?.checksums.sha256;
        if (sha256 !== undefined) sent.add(sha256);
      }
    }
    const wanted = parts.flatMap((part) =>
      Object.entries(part.request?.files ?? {})
        .filter(([path, f]) => !(path in part.files) && !sent.has(f.checksums.sha256 ?? ''))
        .map(([path, f]) => ({ path, size: f.size, sha256: f.checksums.sha256 ?? '' })),
    );
    if (wanted.length === 0) return;
    if (!this.#uploadedFiles || workspace === '') {
      throw new DebusineError(
        'validation',
        `Remote files (${wanted.map((f) => f.path).join(', ')}) need a workspace to check them in: choose one; nothing was sent`,
        { rule: 'upload.remote-file-unknown', file: wanted[0]?.path },
      );
    }
    await this.#uploadedFiles.confirm(
      serverKey(client.apiUrl, this.#session.active()?.scope ?? null),
      workspace,
      wanted,
      (id) => client.artifactGet(id),
    );
  }

  async #cleanup(entry: Entry): Promise<void> {
    if (entry.stored) await this.store.remove(entry.stored.id);
    if (entry.view.draftId !== null) await this.#drafts.discard(entry.view.draftId);
    // Resumed after a restart, it has no draft any more, only the folder its files are in.
    else if (entry.stored) await this.#drafts.removeFoldersOf(localFilesOf(entry.stored));
  }

  /** The local files the recorded jobs still read (their drafts' folders must stay). */
  localFiles(): string[] {
    return [...this.#entries.values()].flatMap((e) => (e.stored ? localFilesOf(e.stored) : []));
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
    startWorkflow?: boolean;
    publishTo?: { workspace: string; suite: string } | null;
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
    const proposal = draft.view.workflow;
    let workflow: StoredJob['workflow'] = null;
    const publishTo = args.publishTo ?? null;
    if (publishTo !== null) {
      workflow = publicationPlan(artifact, proposal, publishTo);
    } else if (args.startWorkflow) {
      // As dput's pre-upload hook: a workflow that cannot start stops the upload before
      // anything is sent.
      if (!proposal?.template || !proposal.workspace || proposal.problem !== null) {
        throw new DebusineError(
          'validation',
          proposal?.problem ?? 'No dput-ng profile names a workflow for this upload',
          { rule: 'dput.workflow' },
        );
      }
      workflow = {
        template: proposal.template,
        workspace: proposal.workspace,
        data: proposal.data,
        distribution: proposal.distribution,
        source: proposal.profile ?? 'dput-ng',
        publish: null,
      };
    }
    // The workflow takes the upload from its own workspace.
    if (workflow && args.workspace !== null && args.workspace !== workflow.workspace) {
      throw new DebusineError(
        'validation',
        `The workflow ${workflow.template} starts in ${workflow.workspace}: upload there, not to ${args.workspace}`,
        { rule: 'dput.workspace' },
      );
    }
    validateLocalArtifact(artifact, { excludeFiles: draft.excludedNames });
    const client = this.#session.client();
    const parts = await planParts(draft.parts.length > 0 ? draft.parts : [artifact], {
      workRequest: args.workRequest,
      expireAt: args.expireAt,
      rules: { excludeFiles: draft.excludedNames },
    });
    const workspace =
      args.workspace ??
      publishTo?.workspace ??
      proposal?.workspace ??
      this.#session.active()?.defaultWorkspace ??
      // The server's default workspace: the engine learns its name from the first answer.
      '';
    await this.#confirmRemoteFiles(client, parts, workspace);
    const stored = await this.store.create({
      apiUrl: client.apiUrl,
      scope: this.#session.active()?.scope ?? null,
      workspace,
      parts,
      relate: parts.length > 1,
      workflow,
    });
    const entry: Entry = {
      view: viewOf(stored, args.draftId, false),
      stored,
      controller: null,
      running: null,
    };
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
      'uploads.start': async (args, caller) => {
        requireHeldDraft(caller, args.draftId);
        // The upload owns the draft from here (it discards it when it ends), so the page
        // that made it no longer releases it; if the start fails, the page holds it again.
        const key = draftKey(args.draftId);
        // Read now: a quick upload may end, and discard the draft, before start returns.
        const fileIds = this.#drafts.get(args.draftId).fileIds;
        caller.forget(key);
        let job: UploadJob;
        try {
          job = await this.start(args);
        } catch (error) {
          caller.hold(key, () => this.#drafts.discard(args.draftId));
          throw error;
        }
        await this.#drafts.releaseUnusedFiles(caller, fileIds);
        return job;
      },
      'uploads.list': () =>
        Promise.resolve(
          [...this.#entries.values()]
            .map((e) => structuredClone(e.view))
            .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
        ),
      'uploads.getSettings': async () =>
        this.#planner ? this.#planner.settings() : { dputWorkflow: 'offer' as const },
      'uploads.setSettings': async (settings) => {
        if (!this.#planner) throw new DebusineError('unsupported', 'No upload settings here');
        return this.#planner.setSettings(settings);
      },
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
        if (!entry.view.retryable) {
          // It would fail the same way: nothing is sent, and the row says what to do.
          throw new DebusineError(
            'conflict',
            `Retrying would fail the same way: ${entry.view.error?.message ?? ''}. Start a new upload from the files as they are now.`,
            { rule: 'upload.not-retryable' },
          );
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
