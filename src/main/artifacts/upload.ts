/**
 * Uploads: `uploadArtifact` creates the artifact and uploads exactly the files the server
 * lists in `files_to_upload` (files it already has are deduplicated); `uploadFiles`
 * uploads given files of an existing artifact; `resumeUploads` continues the persisted
 * jobs after a restart. Several files go at once (4 by default).
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { DebusineError } from '../../shared/errors';
import type { RemoteArtifact } from '../../shared/models';
import { validateLocalArtifact, type RuleOptions } from './kind-rules';
import type { LocalArtifact } from './local-artifact';
import { ProgressTracker, type ProgressListener } from './progress';
import { createArtifact, transportOf, type ClientLike } from './remote';
import { uploadFile } from './upload-file';
import type { UploadJob, UploadJobStore } from './job-store';

export interface TransferOptions {
  concurrency?: number;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
  /** Chunk size in bytes (at most 50 MiB); tests use small ones. */
  chunkSize?: number;
  retryBaseMs?: number;
  /** Attempts per chunk on 5xx and network errors (default 6). */
  maxRetries?: number;
}

export interface UploadArtifactOptions extends TransferOptions {
  workspace?: string | null;
  workRequest?: number | null;
  expireAt?: string | null;
  /** Persists the job so that it can be resumed after a restart; removed on success. */
  jobStore?: UploadJobStore;
  rules?: RuleOptions;
}

export interface UploadResult extends RemoteArtifact {
  /** Paths whose bytes were sent. */
  uploaded: string[];
  /** Paths the server already had (deduplicated, or completed before a resume). */
  present: string[];
}

export interface UploadFilesOptions extends TransferOptions {
  /** Base for relative local paths. */
  baseDirectory?: string;
  /** Called after each file the server confirms (the job store records it). */
  onFileDone?: (path: string) => Promise<void>;
  /** The artifact was just created and lists these files: start at 0, without a probe. */
  fresh?: boolean;
}

async function runPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
  if (failure !== undefined) throw failure;
}

export async function uploadFiles(
  client: ClientLike,
  artifactId: number,
  files: Record<string, string> | Map<string, string>,
  options: UploadFilesOptions = {},
): Promise<{ uploaded: string[]; present: string[] }> {
  const http = transportOf(client);
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  const sized: { path: string; local: string; size: number }[] = [];
  for (const [path, local] of entries) {
    const full =
      isAbsolute(local) || !options.baseDirectory ? local : join(options.baseDirectory, local);
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile()) {
      throw new DebusineError(
        'validation',
        `Cannot upload ${path}: "${full}" is not a readable file`,
        {
          file: full,
          rule: 'file-exists',
        },
      );
    }
    sized.push({ path, local: full, size: info.size });
  }
  const tracker = new ProgressTracker(
    sized.map((f) => [f.path, f.size]),
    options.onProgress,
  );
  const uploaded: string[] = [];
  const present: string[] = [];
  // Controller so that one failed file stops the others quickly.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  try {
    await runPool(sized, options.concurrency ?? 4, async (file) => {
      try {
        const outcome = await uploadFile(http, {
          artifactId,
          pathInArtifact: file.path,
          localFile: file.local,
          size: file.size,
          signal,
          ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
          ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}),
          ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          ...(options.fresh ? { startAt: 0 } : {}),
          onBytes: (bytes) => {
            tracker.update(file.path, bytes);
          },
        });
        (outcome === 'uploaded' ? uploaded : present).push(file.path);
        tracker.update(file.path, file.size, outcome === 'uploaded' ? 'done' : 'skipped');
        await options.onFileDone?.(file.path);
      } catch (error) {
        tracker.update(file.path, 0, 'failed');
        stop.abort();
        throw error;
      }
    });
  } catch (error) {
    if (options.signal?.aborted) {
      throw new DebusineError(
        'cancelled',
        `The upload to artifact ${String(artifactId)} was cancelled`,
        {
          operation: 'uploadFiles',
        },
      );
    }
    throw error;
  }
  return { uploaded: uploaded.sort(), present: present.sort() };
}

export async function uploadArtifact(
  client: ClientLike,
  artifact: LocalArtifact,
  options: UploadArtifactOptions = {},
): Promise<UploadResult> {
  validateLocalArtifact(artifact, options.rules);
  const request = await artifact.createRequest(options, options.signal);
  const created = await createArtifact(client, request, options.signal);
  const missingRemote = created.files_to_upload.filter((p) => !artifact.files.has(p));
  if (missingRemote.length) {
    throw new DebusineError(
      'validation',
      `Artifact ${String(created.id)} was created, but the server does not have ${missingRemote.join(', ')}, ` +
        'which were declared as remote files (allow_remote): upload them first',
      { rule: 'upload.remote-file-on-server', file: missingRemote[0], artifact: created.id },
    );
  }
  const toUpload = new Map(created.files_to_upload.map((p) => [p, artifact.files.get(p) ?? '']));
  let job: UploadJob | undefined;
  if (options.jobStore && toUpload.size > 0) {
    const http = transportOf(client);
    const files: UploadJob['files'] = {};
    for (const [path, local] of toUpload) {
      const info = await stat(local);
      files[path] = { local, size: info.size, mtimeMs: info.mtimeMs };
    }
    job = await options.jobStore.create({
      apiUrl: http.apiUrl,
      scope: http.scope ?? null,
      artifactId: created.id,
      workspace: created.workspace,
      category: created.category,
      files,
    });
  }
  const result = await runJob(client, created.id, toUpload, options, job, options.jobStore, true);
  const alreadyThere = artifact.paths().filter((p) => !created.files_to_upload.includes(p));
  return {
    id: created.id,
    ...(created.url !== undefined ? { url: created.url } : {}),
    workspace: created.workspace,
    links: created.links,
    uploaded: result.uploaded,
    present: [...alreadyThere, ...result.present].sort(),
  };
}

async function runJob(
  client: ClientLike,
  artifactId: number,
  files: Map<string, string>,
  options: TransferOptions,
  job: UploadJob | undefined,
  store: UploadJobStore | undefined,
  fresh: boolean,
): Promise<{ uploaded: string[]; present: string[] }> {
  try {
    const result = await uploadFiles(client, artifactId, files, {
      ...options,
      fresh,
      onFileDone: async (path) => {
        if (!job || !store) return;
        job.done.push(path);
        await store.save(job);
      },
    });
    if (job && store) await store.remove(job.id);
    return result;
  } catch (error) {
    // A cancelled job stays as it is (a pause), and so does one that lost the server
    // (network, time-out, 5xx): resumeUploads continues both. Other errors need a person.
    if (job && store) {
      const code = error instanceof DebusineError ? error.code : 'internal';
      if (code !== 'cancelled') {
        job.state = ['network', 'timeout', 'server'].includes(code) ? 'uploading' : 'failed';
        job.error = error instanceof Error ? error.message : String(error);
        await store.save(job);
      }
    }
    throw error;
  }
}

export interface ResumeOutcome {
  job: UploadJob;
  result?: { uploaded: string[]; present: string[] };
  error?: DebusineError;
}

/**
 * Continues every persisted job whose server `clientFor` can reach (it returns undefined
 * for jobs of servers that are not configured any more; those stay in the store). Each
 * file is probed, so bytes the server already has are not sent again.
 */
export async function resumeUploads(
  store: UploadJobStore,
  clientFor: (job: UploadJob) => ClientLike | undefined,
  options: TransferOptions & { includeFailed?: boolean } = {},
): Promise<ResumeOutcome[]> {
  const outcomes: ResumeOutcome[] = [];
  for (const job of await store.list()) {
    if (job.state === 'failed' && !options.includeFailed) continue;
    const client = clientFor(job);
    if (!client) continue;
    const pending = new Map<string, string>();
    try {
      for (const [path, file] of Object.entries(job.files)) {
        if (job.done.includes(path)) continue;
        const info = await stat(file.local).catch(() => undefined);
        if (info?.size !== file.size || info.mtimeMs !== file.mtimeMs) {
          throw new DebusineError(
            'validation',
            `Cannot resume the upload to artifact ${String(job.artifactId)}: ${file.local} changed or disappeared since the upload started`,
            { file: file.local, rule: 'resume-file-unchanged' },
          );
        }
        pending.set(path, file.local);
      }
      job.state = 'uploading';
      job.error = null;
      // Resumed: the server may hold part of a file, so each file starts with a probe.
      const result = await runJob(client, job.artifactId, pending, options, job, store, false);
      outcomes.push({ job, result });
    } catch (error) {
      const mapped =
        error instanceof DebusineError ? error : new DebusineError('internal', String(error));
      if (mapped.code === 'cancelled') throw mapped;
      if (mapped.details.rule === 'resume-file-unchanged') {
        job.state = 'failed';
        job.error = mapped.message;
        await store.save(job);
      }
      outcomes.push({ job, error: mapped });
    }
  }
  return outcomes;
}
