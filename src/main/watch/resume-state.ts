/**
 * Where the watcher resumes after an outage or a restart: the last `completed_at` it
 * delivered, plus the ids delivered at exactly that instant (the server resends every
 * work request sharing that timestamp, and those must not be delivered twice).
 *
 * The file keeps the Debusine CLI's format (`{"last_completed_at": …}`), so the CLI's
 * `--last-completed-at` file and this one are interchangeable; the extra key is ignored
 * by the CLI.
 */
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../json-file';

export interface ResumePoint {
  lastCompletedAt: string;
  /** `id` of every work request delivered with completed_at === lastCompletedAt. */
  idsAtLast: number[];
}

const fileSchema = z.looseObject({
  last_completed_at: z.string().min(1),
  ids_at_last_completed_at: z.array(z.number().int()).optional(),
});

export interface ResumeStore {
  load(): Promise<ResumePoint | undefined>;
  save(point: ResumePoint): Promise<void>;
}

export class ResumeFile implements ResumeStore {
  readonly path: string;
  #writing: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  async load(): Promise<ResumePoint | undefined> {
    let raw: unknown;
    try {
      raw = await readJsonFile(this.path);
    } catch {
      // A damaged file must not stop watching: start from now, as without a file.
      return undefined;
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) return undefined;
    return {
      lastCompletedAt: parsed.data.last_completed_at,
      idsAtLast: parsed.data.ids_at_last_completed_at ?? [],
    };
  }

  /** Writes are chained so the file always ends with the latest point. */
  save(point: ResumePoint): Promise<void> {
    const value = {
      last_completed_at: point.lastCompletedAt,
      ids_at_last_completed_at: point.idsAtLast,
    };
    this.#writing = this.#writing.then(
      () => writeJsonFile(this.path, value),
      () => writeJsonFile(this.path, value),
    );
    return this.#writing;
  }
}

/** For tests and for watching without persistence. */
export class MemoryResumeStore implements ResumeStore {
  point: ResumePoint | undefined;

  load(): Promise<ResumePoint | undefined> {
    return Promise.resolve(this.point);
  }

  save(point: ResumePoint): Promise<void> {
    this.point = { ...point, idsAtLast: [...point.idsAtLast] };
    return Promise.resolve();
  }
}
