/**
 * Upload jobs persisted as one JSON file each in a directory, so that an upload survives
 * a restart of the app: the server keeps partial files (docs/debusine-server-facts.md),
 * and on start `resumeUploads` probes each file and continues from what the server has.
 * Writes are atomic (temporary file, then rename), so a crash never leaves a half-written
 * job.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const uploadJobSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9-]+$/),
  apiUrl: z.string(),
  scope: z.string().nullable(),
  artifactId: z.number().int(),
  workspace: z.string(),
  category: z.string(),
  createdAt: z.string(),
  /** Path in the artifact → the local file, its size and mtime when the job was made. */
  files: z.record(
    z.string(),
    z.strictObject({ local: z.string(), size: z.number().int(), mtimeMs: z.number() }),
  ),
  /** Paths the server confirmed complete. */
  done: z.array(z.string()),
  state: z.enum(['uploading', 'failed']),
  error: z.string().nullable(),
});
export type UploadJob = z.infer<typeof uploadJobSchema>;

export class UploadJobStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  #file(id: string): string {
    return join(this.directory, `${id}.json`);
  }

  async create(
    job: Omit<UploadJob, 'id' | 'createdAt' | 'done' | 'state' | 'error'>,
  ): Promise<UploadJob> {
    const full: UploadJob = {
      ...job,
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      done: [],
      state: 'uploading',
      error: null,
    };
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
    try {
      return uploadJobSchema.parse(JSON.parse(await readFile(this.#file(id), 'utf8')));
    } catch {
      return undefined;
    }
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
