/**
 * The one way the app uploads: a job (job-store.ts) is planned from local artifacts, then
 * driven step by step by `runUploadJob`, which records each step as it completes. The
 * Upload screen, a resumed job after a restart, signing's upload of the signed files and
 * the bench all go through it, so what is measured and tested is what users run.
 *
 * Order matters for what is sent. The server marks a file of a new artifact complete only
 * when its store already has it with a complete copy in the same workspace; a file still
 * being uploaded for another artifact counts as missing. So the first part is created
 * first, and each other part only once the first holds all of that part's files
 * confirmed: the source and binary packages of a .changes then find every file the
 * upload sent, and nothing is sent twice. A package is created as soon as its own files
 * are in, while the upload's other files are still on their way, and related as soon as
 * both ends are complete (the server relates complete artifacts only).
 */
import { stat } from 'node:fs/promises';
import { DebusineError } from '../../../shared/errors';
import type { JsonObject } from '../../../shared/contract';
import {
  artifactCreateRequestSchema,
  type RelationType,
  type WorkRequestResponse,
} from '../../../shared/models';
import type { DebusineClient } from '../../api/client';
import {
  newJob,
  NO_RECORD,
  type JobRecorder,
  type NewUploadJob,
  type UploadJob,
  type UploadJobStore,
  type UploadPart,
  type WorkflowPlan,
} from './job-store';
import { validateLocalArtifact, type RuleOptions } from '../local/kind-rules';
import type { LocalArtifact } from '../local/local-artifact';
import { createArtifact, transportOf, type ClientLike } from './remote';
import { uploadFiles, type TransferOptions } from './upload';

/**
 * Failures that running the job again would meet again: a local file that changed since
 * the job was made (its checksum is in the created artifact), and files the server waits
 * for that the job has no copy of. Retry is refused for them, rather than failing twice.
 */
const FINAL_RULES: ReadonlySet<string> = new Set([
  'resume-file-unchanged',
  'upload.remote-file-on-server',
]);

export function isFinalFailure(error: unknown): boolean {
  if (!(error instanceof DebusineError)) return false;
  const rule = error.details.rule;
  return typeof rule === 'string' && FINAL_RULES.has(rule);
}

/** What dput-ng relates a .changes upload to each of its packages with. */
export const UPLOAD_RELATIONS: readonly RelationType[] = ['extends', 'relates-to'];

export interface PlanOptions {
  workspace?: string | null;
  workRequest?: number | null;
  expireAt?: string | null;
  signal?: AbortSignal;
  rules?: RuleOptions;
}

/**
 * A part for each artifact, with its create request (sizes and SHA-256 of its files,
 * checked against what its control files list). Nothing is sent.
 */
export async function planParts(
  artifacts: readonly LocalArtifact[],
  options: PlanOptions = {},
): Promise<UploadPart[]> {
  const parts: UploadPart[] = [];
  for (const artifact of artifacts) {
    validateLocalArtifact(artifact, options.rules);
    const request = artifactCreateRequestSchema.parse(
      await artifact.createRequest(options, options.signal),
    );
    const files: UploadPart['files'] = {};
    for (const path of artifact.paths()) {
      const local = artifact.files.get(path);
      if (local === undefined) continue;
      const info = await stat(local);
      files[path] = { local, size: info.size, mtimeMs: info.mtimeMs };
    }
    parts.push({
      category: artifact.category,
      label: labelOf(Object.keys(request.files)),
      // The job's workspace decides where the parts go: one place, for all of them.
      request: { ...request, workspace: null },
      artifactId: null,
      files,
      done: [],
      begun: [],
      missing: [],
    });
  }
  return parts;
}

/** The file that names an artifact in lists: a .changes before the .dsc it lists, and so on. */
export function labelOf(paths: readonly string[]): string {
  return (
    ['.changes', '.dsc', '.build', '.deb', '.udeb']
      .map((ending) => paths.find((p) => p.endsWith(ending)))
      .find((p) => p !== undefined) ??
    paths[0] ??
    'artifact'
  );
}

export interface JobProgress {
  /** Called after every recorded step: a part created, a file confirmed, relations, workflow. */
  onStep?: (job: UploadJob) => void;
  /** The workflow the job started, as the server answered. */
  onWorkflow?: (workflow: WorkRequestResponse) => Promise<void>;
}

export interface JobOutcome {
  /** The artifact of each part, in order. */
  artifactIds: number[];
  /** Paths whose bytes were sent, per part. */
  uploaded: string[][];
  /** Paths the server had already (deduplicated, or confirmed before a resume), per part. */
  present: string[][];
  workflowId: number | null;
}

function clientOf(client: ClientLike, step: string): DebusineClient {
  if ('http' in client) return client;
  throw new DebusineError('internal', `${step} needs the whole client, not only its transport`);
}

/** Task data with the placeholders dput-ng's profiles use filled in. */
export function workflowData(plan: WorkflowPlan, uploadId: number): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(plan.data)) {
    out[key] =
      value === '@UPLOAD@'
        ? uploadId
        : value === '@DISTRIBUTION@'
          ? (plan.distribution ?? value)
          : value;
  }
  return out;
}

async function unchanged(job: UploadJob, part: UploadPart, path: string): Promise<string> {
  const file = part.files[path];
  if (!file) throw new DebusineError('internal', `No local file for ${path}`);
  const info = await stat(file.local).catch(() => undefined);
  if (info?.size !== file.size || info.mtimeMs !== file.mtimeMs) {
    throw new DebusineError(
      'validation',
      `Cannot go on with the upload to artifact ${String(part.artifactId)}: ${file.local} changed or disappeared since the upload started`,
      { file: file.local, rule: 'resume-file-unchanged', job: job.id },
    );
  }
  return file.local;
}

/**
 * Drives a job to its end from wherever it stands, recording each step. A network loss, a
 * time-out or a 5xx leaves the job as it is, to go on later; a local file that changed
 * marks it failed. A pause (the signal) leaves it as it is too.
 */
export async function runUploadJob(
  client: ClientLike,
  job: UploadJob,
  recorder: JobRecorder,
  options: TransferOptions & JobProgress = {},
): Promise<JobOutcome> {
  // One write at a time, each of the job as it is then: steps run side by side below, and
  // two writes racing could leave an older state on disk after a newer one.
  let writing: Promise<void> = Promise.resolve();
  const record = (): Promise<void> => {
    writing = writing.then(
      () => recorder.save(job),
      () => recorder.save(job),
    );
    return writing;
  };
  const save = async () => {
    await record();
    options.onStep?.(job);
  };
  const uploaded: string[][] = job.parts.map(() => []);
  const present: string[][] = job.parts.map(() => []);
  const runPart = async (
    part: UploadPart,
    index: number,
    onConfirmed?: () => void,
  ): Promise<void> => {
    let sent: string[] = [];
    if (part.artifactId === null) {
      if (!part.request) throw new DebusineError('internal', `No request for ${part.label}`);
      const created = await createArtifact(
        client,
        // No workspace: the server's default one, which the answer names.
        { ...part.request, workspace: job.workspace === '' ? null : job.workspace },
        options.signal,
      );
      if (job.workspace === '') job.workspace = created.workspace;
      const missingRemote = created.files_to_upload.filter((p) => !(p in part.files));
      if (missingRemote.length) {
        // Recorded, so that nothing creates it a second time; the job cannot go on.
        part.artifactId = created.id;
        part.missing = missingRemote;
        throw new DebusineError(
          'validation',
          `Artifact ${String(created.id)} was created, but the server does not hold ${missingRemote.join(', ')}, ` +
            'which were declared as remote files (allow_remote), and the app has no copy to send',
          { rule: 'upload.remote-file-on-server', file: missingRemote[0], artifact: created.id },
        );
      }
      part.artifactId = created.id;
      const toUpload = new Set(created.files_to_upload);
      part.done = Object.keys(part.files).filter((p) => !toUpload.has(p));
      part.begun = [];
      await save();
      onConfirmed?.();
    }
    const artifactId = part.artifactId;
    const pending = new Map<string, string>();
    const done = new Set(part.done);
    for (const path of Object.keys(part.files)) {
      if (!done.has(path)) pending.set(path, await unchanged(job, part, path));
    }
    // Remote files (allow_remote) are in the request only: the server had them.
    const alreadyThere = [
      ...new Set([...Object.keys(part.request?.files ?? {}), ...Object.keys(part.files)]),
    ].filter((p) => !pending.has(p));
    if (pending.size > 0) {
      const begun = new Set(part.begun);
      const result = await uploadFiles(client, artifactId, pending, {
        ...options,
        needsProbe: (path) => begun.has(path),
        onFileStart: async (path) => {
          if (begun.has(path)) return;
          begun.add(path);
          part.begun.push(path);
          await record();
        },
        onFileDone: async (path) => {
          part.done.push(path);
          await save();
          onConfirmed?.();
        },
      });
      sent = result.uploaded;
      for (const path of result.present) alreadyThere.push(path);
    }
    uploaded[index] = sent;
    present[index] = alreadyThere.sort();
  };
  const [head, ...rest] = job.parts;
  // The other parts, each started once: as soon as the first part holds all of its files
  // confirmed (see the module comment), while the first part's other files are still
  // being sent, or else once the first part is complete.
  const runs = new Map<number, Promise<void>>();
  const startRest = (i: number): Promise<void> => {
    let run = runs.get(i);
    const part = rest[i];
    if (!run && part) {
      run = runPart(part, i + 1);
      // Awaited below; until then a failure must not count as unhandled.
      run.catch(() => undefined);
      runs.set(i, run);
    }
    return run ?? Promise.resolve();
  };
  const startReady = (): void => {
    if (head?.artifactId == null) return;
    const confirmed = new Set(head.done);
    rest.forEach((part, i) => {
      if (part.artifactId !== null || runs.has(i)) return;
      const ready = Object.entries(part.files).every(
        ([path, file]) => confirmed.has(path) && head.files[path]?.local === file.local,
      );
      if (ready) void startRest(i);
    });
  };
  try {
    try {
      if (head) {
        startReady();
        await runPart(head, 0, startReady);
      }
    } catch (error) {
      // Parts already started end (a pause stops them too) before the job is recorded.
      await Promise.allSettled(runs.values());
      throw error;
    }
    const first = head?.artifactId ?? undefined;
    // Each relation as soon as its package is complete: the first part is by now.
    const relations =
      job.relate && first !== undefined ? clientOf(client, 'Relating the artifacts') : null;
    const settled = await Promise.allSettled(
      rest.map(async (part, i) => {
        await startRest(i);
        const target = part.artifactId;
        if (!relations || first === undefined || target === null) return;
        if (job.related.includes(i + 1)) return;
        // Side by side: each is one request, and the server answers an existing one as made.
        await Promise.all(
          UPLOAD_RELATIONS.map((type) =>
            relations.relationCreate({ artifact: first, target, type }),
          ),
        );
        job.related.push(i + 1);
        await save();
      }),
    );
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    if (job.workflow && job.workflowId === null && first !== undefined) {
      const created = await clientOf(client, 'Starting the workflow').workflowCreate({
        template_name: job.workflow.template,
        workspace: job.workflow.workspace,
        task_data: workflowData(job.workflow, first),
      });
      job.workflowId = created.id;
      await save();
      await options.onWorkflow?.(created).catch(() => undefined);
    }
    await recorder.remove(job.id);
    return {
      artifactIds: job.parts.map((p) => p.artifactId ?? 0),
      uploaded,
      present,
      workflowId: job.workflowId,
    };
  } catch (error) {
    // A pause stays as it is, and so does a job that lost the server (network, time-out,
    // 5xx): running it again goes on. Other errors need a person.
    const code = error instanceof DebusineError ? error.code : 'internal';
    if (code !== 'cancelled') {
      job.state = ['network', 'timeout', 'server'].includes(code) ? 'uploading' : 'failed';
      job.error = error instanceof Error ? error.message : String(error);
      job.final = isFinalFailure(error);
      await record();
    }
    throw error;
  }
}

export interface UploadArtifactOptions extends TransferOptions, PlanOptions, JobProgress {
  /** Records the job so that it can go on after a restart; removed on success. */
  jobStore?: UploadJobStore;
}

export interface UploadResult {
  id: number;
  workspace: string;
  /** Paths whose bytes were sent. */
  uploaded: string[];
  /** Paths the server already had (deduplicated, or completed before a resume). */
  present: string[];
}

/** Plans a job and runs it in the client's transport's terms (its API URL and scope). */
export async function startJob(
  client: ClientLike,
  job: Omit<NewUploadJob, 'apiUrl' | 'scope'>,
  recorder: JobRecorder,
  options: TransferOptions & JobProgress = {},
): Promise<{ job: UploadJob; outcome: JobOutcome }> {
  const http = transportOf(client);
  const made = newJob({ ...job, apiUrl: http.apiUrl, scope: http.scope ?? null });
  await recorder.save(made);
  const outcome = await runUploadJob(client, made, recorder, options);
  return { job: made, outcome };
}

/** One artifact, through the engine: creates it and sends what the server lacks. */
export async function uploadArtifact(
  client: ClientLike,
  artifact: LocalArtifact,
  options: UploadArtifactOptions = {},
): Promise<UploadResult> {
  const parts = await planParts([artifact], options);
  const workspace = options.workspace ?? null;
  const { job, outcome } = await startJob(
    client,
    // The server puts an artifact without a workspace in its default one; the job learns
    // which from the answer.
    { workspace: workspace ?? '', parts },
    options.jobStore ?? NO_RECORD,
    options,
  );
  return {
    id: outcome.artifactIds[0] ?? 0,
    workspace: job.workspace,
    uploaded: outcome.uploaded[0] ?? [],
    present: outcome.present[0] ?? [],
  };
}

export interface ResumeOutcome {
  job: UploadJob;
  result?: JobOutcome;
  error?: DebusineError;
}

/**
 * Goes on with every recorded job whose server `clientFor` can reach (it returns undefined
 * for jobs of servers that are not configured any more; those stay in the store).
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
    job.state = 'uploading';
    job.error = null;
    try {
      outcomes.push({ job, result: await runUploadJob(client, job, store, options) });
    } catch (error) {
      const mapped =
        error instanceof DebusineError ? error : new DebusineError('internal', String(error));
      if (mapped.code === 'cancelled') throw mapped;
      outcomes.push({ job, error: mapped });
    }
  }
  return outcomes;
}
