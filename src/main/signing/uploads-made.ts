/**
 * What each Debian upload this app made contained, per server: its source, version and
 * Distribution, and the SHA-256 of every file it sent or named (the .changes' files and
 * the files its .dsc lists, the orig tarball included when it stayed on the server). A
 * workflow started by an upload asks for the user's signature on an upload the server
 * made from it; before the user's key signs that, signing/upload-review.ts compares it with
 * this record. An upload job's own file is removed once it completes, and a workflow may
 * wait for a signature for weeks, so this record outlives the job: it is bounded by count
 * only, newest kept.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

/** Uploads remembered, newest kept: years of a busy developer's uploads. */
export const UPLOADS_MADE_LIMIT = 1_000;
/** Files remembered of one upload: more than any source upload, and most binary ones. */
export const FILES_PER_UPLOAD_LIMIT = 2_000;

/** The key a server's records are filed under: its API address and scope. */
export function serverKey(apiUrl: string, scope: string | null): string {
  return `${apiUrl} ${scope ?? ''}`;
}

const SHA256 = /^[0-9a-f]{64}$/;

const uploadMadeSchema = z.object({
  server: z.string(),
  workspace: z.string(),
  /** When the upload completed, ISO 8601. */
  madeAt: z.string(),
  /** The `debian:upload` artifact the app made. */
  artifactId: z.number().int().positive(),
  workflowId: z.number().int().positive().nullable(),
  source: z.string(),
  version: z.string(),
  distribution: z.string(),
  /** File name → SHA-256. */
  files: z.record(z.string(), z.string().regex(SHA256)),
});
export type UploadMade = z.infer<typeof uploadMadeSchema>;

const fileSchema = z.object({ uploads: z.array(z.unknown()).catch([]) });

export class UploadsMade {
  readonly #file: string;
  readonly #limit: number;
  readonly #queue = new SerialQueue();

  constructor(dataDir: string, limit = UPLOADS_MADE_LIMIT) {
    this.#file = join(dataDir, 'uploads-made.json');
    this.#limit = limit;
  }

  /** The records, each checked on its own: one damaged entry loses only itself. */
  async #read(): Promise<UploadMade[]> {
    const raw = await readJsonFile(this.#file).catch(() => undefined);
    const parsed = fileSchema.safeParse(raw ?? {});
    if (!parsed.success) return [];
    const uploads: UploadMade[] = [];
    for (const entry of parsed.data.uploads) {
      const one = uploadMadeSchema.safeParse(entry);
      if (one.success) uploads.push(one.data);
    }
    return uploads;
  }

  record(upload: UploadMade): Promise<void> {
    return this.#queue.run(async () => {
      const files = Object.fromEntries(
        Object.entries(upload.files)
          .filter(([, sha256]) => SHA256.test(sha256))
          .slice(0, FILES_PER_UPLOAD_LIMIT),
      );
      const entry = { ...upload, files };
      const same = (u: UploadMade) =>
        u.server === upload.server && u.artifactId === upload.artifactId;
      const kept = (await this.#read()).filter((u) => !same(u));
      kept.push(entry);
      await writeJsonFile(this.#file, { uploads: kept.slice(-this.#limit) }, 0o600);
    });
  }

  /** The uploads of `source` this app made on `server`, newest first. */
  async ofSource(server: string, source: string): Promise<UploadMade[]> {
    const all = await this.#read();
    return all.filter((u) => u.server === server && u.source === source).reverse();
  }
}
