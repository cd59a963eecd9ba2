/**
 * The files this app has uploaded, per server and workspace: a SHA-256 and the artifacts
 * that hold it. A remote file (allow_remote) must already be complete on the server in the
 * artifact's workspace, or the server creates the artifact and waits for a file that never
 * comes. The API has no request that says whether the server holds a file by its checksum,
 * so a remote file is declared only when an artifact this app uploaded holds it and the
 * server confirms that artifact still does: in that workspace, with that SHA-256 and size,
 * and not among the files it still waits for.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DebusineError } from '../../../shared/errors';
import type { ArtifactResponse } from '../../../shared/models';
import { readJsonFile, SerialQueue, writeJsonFile } from '../../json-file';

/**
 * How many files are remembered, newest kept: a developer's uploads over months, at about
 * 150 bytes each.
 */
export const UPLOADED_FILES_LIMIT = 20_000;

const entrySchema = z.object({
  server: z.string(),
  workspace: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  artifactId: z.number().int().positive(),
});
type Entry = z.infer<typeof entrySchema>;
const fileSchema = z.object({ entries: z.array(entrySchema).catch([]) });

export interface WantedRemoteFile {
  path: string;
  size: number;
  sha256: string;
}

export class UploadedFiles {
  readonly #file: string;
  readonly #limit: number;
  readonly #queue = new SerialQueue();

  constructor(dataDir: string, limit = UPLOADED_FILES_LIMIT) {
    this.#file = join(dataDir, 'uploaded-files.json');
    this.#limit = limit;
  }

  async #read(): Promise<Entry[]> {
    const raw = await readJsonFile(this.#file).catch(() => undefined);
    const parsed = fileSchema.safeParse(raw ?? {});
    return parsed.success ? parsed.data.entries : [];
  }

  /** Remembers the complete files of an artifact the app uploaded. */
  record(
    server: string,
    workspace: string,
    artifactId: number,
    files: readonly { sha256: string; size: number }[],
  ): Promise<void> {
    return this.#queue.run(async () => {
      const added = files
        .filter((f) => /^[0-9a-f]{64}$/.test(f.sha256))
        .map((f) => ({ server, workspace, artifactId, sha256: f.sha256, size: f.size }));
      if (added.length === 0) return;
      const key = (e: Entry) => `${e.server}\n${e.workspace}\n${e.sha256}\n${String(e.artifactId)}`;
      const fresh = new Set(added.map(key));
      const kept = (await this.#read()).filter((e) => !fresh.has(key(e)));
      const entries = [...kept, ...added].slice(-this.#limit);
      await writeJsonFile(this.#file, { entries }, 0o600);
    });
  }

  /** The artifacts that held this file when the app uploaded them, newest first. */
  async candidates(server: string, workspace: string, sha256: string): Promise<number[]> {
    const entries = await this.#read();
    const ids = entries
      .filter((e) => e.server === server && e.workspace === workspace && e.sha256 === sha256)
      .map((e) => e.artifactId);
    return [...new Set(ids.reverse())];
  }

  /**
   * Checks that the server holds each wanted file, complete, in `workspace`; refuses with
   * every file it could not confirm, before anything is created.
   */
  async confirm(
    server: string,
    workspace: string,
    wanted: readonly WantedRemoteFile[],
    artifactGet: (id: number) => Promise<ArtifactResponse>,
  ): Promise<void> {
    const unconfirmed: string[] = [];
    const read = new Map<number, ArtifactResponse | null>();
    const get = async (id: number): Promise<ArtifactResponse | null> => {
      if (!read.has(id)) read.set(id, await artifactGet(id).catch(() => null));
      return read.get(id) ?? null;
    };
    for (const file of wanted) {
      let found = false;
      for (const id of (await this.candidates(server, workspace, file.sha256)).slice(0, 5)) {
        const artifact = await get(id);
        if (artifact?.workspace !== workspace) continue;
        found = Object.entries(artifact.files).some(
          ([path, f]) =>
            f.size === file.size &&
            f.checksums.sha256 === file.sha256 &&
            !artifact.files_to_upload.includes(path),
        );
        if (found) break;
      }
      if (!found) unconfirmed.push(file.path);
    }
    if (unconfirmed.length > 0) {
      throw new DebusineError(
        'validation',
        `The server is not known to hold ${unconfirmed.join(', ')} in ${workspace}: no artifact ` +
          'this app uploaded there has it. Add the file (it is in the folder where dpkg-source ' +
          'made the package) or turn off "Allow remote files"; nothing was sent.',
        { rule: 'upload.remote-file-unknown', file: unconfirmed[0] },
      );
    }
  }
}
