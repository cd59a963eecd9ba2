/**
 * The publications the app started and has not yet seen through: an upload sent to a suite
 * of the user's repository by its `publish-to-<suite>` workflow. A publication is done when
 * the suite's indexes are updated and signed (the `update_suite` step inside that
 * workflow's tree), not when the package is copied into the suite, nor when the workflow
 * ends (its QA steps may end after, or fail with the package published all the same). Kept
 * in the data directory, so that a publication that completed while the app was closed is
 * told when the completions it missed are read again.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { WorkRequestResponse } from '../../shared/models';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

/** More publications in flight than anyone starts; the oldest go first past it. */
export const PUBLICATIONS_KEPT = 500;

const publicationSchema = z.strictObject({
  /** The server, as serverKey names it (API URL and scope). */
  server: z.string(),
  /** The workflow the upload started: the root of the update_suite step. */
  rootId: z.number().int().positive(),
  workspace: z.string(),
  suite: z.string(),
  source: z.string(),
  version: z.string(),
  startedAt: z.string(),
});
export type Publication = z.infer<typeof publicationSchema>;

const fileSchema = z.object({ publications: z.array(z.unknown()).catch([]) });

/** The step of a publish-to workflow that makes the package installable. */
const PUBLISHING_TASK = 'update_suite';

export class Publications {
  readonly #file: string;
  readonly #queue = new SerialQueue();
  #loaded: Publication[] | undefined;

  constructor(dataDir: string) {
    this.#file = join(dataDir, 'publications.json');
  }

  async #all(): Promise<Publication[]> {
    if (this.#loaded) return this.#loaded;
    const raw = await readJsonFile(this.#file).catch(() => undefined);
    const parsed = fileSchema.safeParse(raw ?? {});
    const out: Publication[] = [];
    for (const entry of parsed.success ? parsed.data.publications : []) {
      const one = publicationSchema.safeParse(entry);
      if (one.success) out.push(one.data);
    }
    this.#loaded = out;
    return out;
  }

  #change(edit: (all: Publication[]) => Publication[]): Promise<void> {
    return this.#queue.run(async () => {
      const next = edit(await this.#all());
      await writeJsonFile(this.#file, { publications: next }, 0o600);
      this.#loaded = next;
    });
  }

  async list(server: string): Promise<Publication[]> {
    return (await this.#all()).filter((p) => p.server === server);
  }

  /** Records a publication as started now. */
  async record(publication: Omit<Publication, 'startedAt'>): Promise<void> {
    const valid = publicationSchema.parse({
      ...publication,
      startedAt: new Date().toISOString(),
    });
    await this.#change((all) => {
      const others = all.filter((p) => !(p.server === valid.server && p.rootId === valid.rootId));
      return [...others, valid].slice(-PUBLICATIONS_KEPT);
    });
  }

  /**
   * What a completion on `server` means for the publications: the one it published (its
   * suite's update succeeded), which is then forgotten; or undefined. The end of a
   * publication's workflow without that forgets it too: it published nothing.
   */
  async completed(
    server: string,
    workRequest: Pick<WorkRequestResponse, 'id' | 'task_name' | 'workflow_root'>,
    result: string,
  ): Promise<Publication | undefined> {
    const rootId = workRequest.workflow_root ?? workRequest.id;
    const all = await this.#all();
    const found = all.find((p) => p.server === server && p.rootId === rootId);
    if (!found) return undefined;
    const published = workRequest.task_name === PUBLISHING_TASK && result === 'success';
    const ended = workRequest.id === rootId;
    if (!published && !ended) return undefined;
    await this.#change((now) => now.filter((p) => !(p.server === server && p.rootId === rootId)));
    return published ? found : undefined;
  }
}
