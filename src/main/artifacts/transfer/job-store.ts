/**
 * Upload jobs persisted as one JSON file each in a directory, so that an upload survives
 * a restart of the app: the server keeps partial files (docs/debusine-server-facts.md),
 * and on start the engine probes each file it had begun and continues from what the server
 * has. Writes are atomic (temporary file, then rename), so a crash never leaves a
 * half-written job.
 *
 * A job is a list of parts, each one artifact: a single artifact, or what dput-ng makes of a
 * .changes (the upload, its source package and one binary package per .deb), then the
 * relations from the first part to the others, then optionally the workflow that takes the
 * first part. Each step is recorded as it completes, so that a resumed job neither makes an
 * artifact twice nor sends a confirmed file again.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { artifactCreateRequestSchema, objectSchema } from '../../../shared/models';

const localFileSchema = z.strictObject({
  local: z.string(),
  size: z.number().int(),
  mtimeMs: z.number(),
});

export const uploadPartSchema = z.strictObject({
  category: z.string(),
  /** The file that names the part in lists: a .changes, .dsc or .deb. */
  label: z.string(),
  /** What creates the artifact; kept after the creation for the record. */
  request: artifactCreateRequestSchema.nullable(),
  /** Set once the server created the artifact. */
  artifactId: z.number().int().nullable(),
  /** Path in the artifact → the local file, its size and mtime when the job was made. */
  files: z.record(z.string(), localFileSchema),
  /** Paths the server confirmed complete (sent, or already in its store). */
  done: z.array(z.string()),
  /**
   * Paths whose bytes may have begun to reach the server: only those need a probe before
   * sending. A file of an artifact just created has none on the server.
   */
  begun: z.array(z.string()).default([]),
  /**
   * Paths the server still waits for that the job has no local file of (a remote file the
   * server turned out not to hold): the artifact stays incomplete.
   */
  missing: z.array(z.string()).default([]),
});
export type UploadPart = z.infer<typeof uploadPartSchema>;

export const workflowPlanSchema = z.strictObject({
  template: z.string(),
  workspace: z.string(),
  /** Task data, with "@UPLOAD@" standing for the first part's artifact id. */
  data: objectSchema,
  /** The .changes' Distribution the template was chosen for, when one was. */
  distribution: z.string().nullable(),
  /** Where the choice came from (a dput-ng profile), for the UI. */
  source: z.string(),
  /**
   * A publication to a suite of the user's repository: which package, which suite, so that
   * its end is told as "published" once the suite's indexes are updated.
   */
  publish: z
    .strictObject({ suite: z.string(), source: z.string(), version: z.string() })
    .nullable()
    .default(null),
});
export type WorkflowPlan = z.infer<typeof workflowPlanSchema>;

export const uploadJobSchema = z.strictObject({
  version: z.literal(2),
  id: z.string().regex(/^[A-Za-z0-9-]+$/),
  apiUrl: z.string(),
  scope: z.string().nullable(),
  workspace: z.string(),
  createdAt: z.string(),
  parts: z.array(uploadPartSchema).min(1),
  /** Make `extends` and `relates-to` from the first part to each other part, as dput-ng does. */
  relate: z.boolean(),
  /** Index of the parts whose relations exist already. */
  related: z.array(z.number().int()),
  workflow: workflowPlanSchema.nullable(),
  workflowId: z.number().int().nullable(),
  state: z.enum(['uploading', 'failed']),
  error: z.string().nullable(),
  /** A failure that running the job again would meet again: only a new upload helps. */
  final: z.boolean().default(false),
});
export type UploadJob = z.infer<typeof uploadJobSchema>;

/** The one-artifact jobs an earlier version of the app wrote; read, then kept as version 2. */
const legacyJobSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9-]+$/),
  apiUrl: z.string(),
  scope: z.string().nullable(),
  artifactId: z.number().int(),
  workspace: z.string(),
  category: z.string(),
  createdAt: z.string(),
  files: z.record(z.string(), localFileSchema),
  done: z.array(z.string()),
  state: z.enum(['uploading', 'failed']),
  error: z.string().nullable(),
});

function fromLegacy(job: z.infer<typeof legacyJobSchema>): UploadJob {
  const paths = Object.keys(job.files);
  return {
    version: 2,
    id: job.id,
    apiUrl: job.apiUrl,
    scope: job.scope,
    workspace: job.workspace,
    createdAt: job.createdAt,
    parts: [
      {
        category: job.category,
        label: paths[0] ?? `artifact ${String(job.artifactId)}`,
        request: null,
        artifactId: job.artifactId,
        files: job.files,
        done: job.done,
        // Nothing says which files had begun: every one left is probed.
        begun: paths,
        missing: [],
      },
    ],
    relate: false,
    related: [],
    workflow: null,
    workflowId: null,
    state: job.state,
    error: job.error,
    final: false,
  };
}

export type NewUploadJob = Pick<UploadJob, 'apiUrl' | 'scope' | 'workspace' | 'parts'> &
  Partial<Pick<UploadJob, 'relate' | 'workflow'>>;

/** Where the engine records each step: a directory (UploadJobStore) or nowhere. */
export interface JobRecorder {
  save(job: UploadJob): Promise<void>;
  remove(id: string): Promise<void>;
}

export function newJob(job: NewUploadJob): UploadJob {
  return {
    version: 2,
    id: randomUUID(),
    createdAt: new Date().toISOString(),
    apiUrl: job.apiUrl,
    scope: job.scope,
    workspace: job.workspace,
    parts: job.parts,
    relate: job.relate ?? false,
    related: [],
    workflow: job.workflow ?? null,
    workflowId: null,
    state: 'uploading',
    error: null,
    final: false,
  };
}

/** Records nothing: a job that need not survive a restart (the engine still drives it). */
export const NO_RECORD: JobRecorder = {
  save: () => Promise.resolve(),
  remove: () => Promise.resolve(),
};

export class UploadJobStore implements JobRecorder {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  #file(id: string): string {
    return join(this.directory, `${id}.json`);
  }

  async create(job: NewUploadJob): Promise<UploadJob> {
    const full = newJob(job);
    await this.save(full);
    return full;
  }

  async save(job: UploadJob): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const target = this.#file(job.id);
    const temporary = `${target}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(uploadJobSchema.parse(job), null, 2), {
      mode: 0o600,
    });
    await rename(temporary, target);
  }

  async get(id: string): Promise<UploadJob | undefined> {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(this.#file(id), 'utf8'));
    } catch {
      return undefined;
    }
    const current = uploadJobSchema.safeParse(raw);
    if (current.success) return current.data;
    const legacy = legacyJobSchema.safeParse(raw);
    return legacy.success ? fromLegacy(legacy.data) : undefined;
  }

  /** Every readable job, oldest first; unreadable files are skipped, not fatal. */
  async list(): Promise<UploadJob[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return [];
    }
    const jobs: UploadJob[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const job = await this.get(name.slice(0, -'.json'.length));
      if (job) jobs.push(job);
    }
    return jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async remove(id: string): Promise<void> {
    await rm(this.#file(id), { force: true });
  }
}
