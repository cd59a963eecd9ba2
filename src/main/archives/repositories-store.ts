/**
 * The repositories the user has on each server, as this app knows them: those it made
 * (from a `create_child_workspace` template) and those the user named. Debusine has no
 * list of workspaces to ask, so this record is the list. Also, per server, where its
 * archive is served when the user said (Debusine's API does not say it).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

/** Repositories remembered on one server: more than anyone keeps. */
export const REPOSITORIES_PER_SERVER = 200;

const repositorySchema = z.object({
  server: z.string(),
  workspace: z.string().min(1).max(200),
  /** experiment: removed by the server 60 days after its last task; kept; or named by hand. */
  kind: z.enum(['experiment', 'kept', 'named']),
  public: z.boolean().nullable(),
  addedAt: z.string(),
  /** The workflow that makes it, while it is being made (null once known to exist). */
  workflowId: z.number().int().positive().nullable(),
});
export type RememberedRepository = z.infer<typeof repositorySchema>;

const fileSchema = z.object({
  repositories: z.array(z.unknown()).catch([]),
  archiveUrls: z.record(z.string(), z.string()).catch({}),
});

export class RepositoriesStore {
  readonly #file: string;
  readonly #queue = new SerialQueue();

  constructor(dataDir: string) {
    this.#file = join(dataDir, 'repositories.json');
  }

  async #read(): Promise<{
    repositories: RememberedRepository[];
    archiveUrls: Record<string, string>;
  }> {
    const raw = await readJsonFile(this.#file).catch(() => undefined);
    const parsed = fileSchema.safeParse(raw ?? {});
    if (!parsed.success) return { repositories: [], archiveUrls: {} };
    const repositories: RememberedRepository[] = [];
    for (const entry of parsed.data.repositories) {
      const one = repositorySchema.safeParse(entry);
      if (one.success) repositories.push(one.data);
    }
    return { repositories, archiveUrls: parsed.data.archiveUrls };
  }

  #change(
    edit: (state: {
      repositories: RememberedRepository[];
      archiveUrls: Record<string, string>;
    }) => void,
  ): Promise<void> {
    return this.#queue.run(async () => {
      const state = await this.#read();
      edit(state);
      await writeJsonFile(this.#file, state, 0o600);
    });
  }

  async list(server: string): Promise<RememberedRepository[]> {
    return (await this.#read()).repositories.filter((r) => r.server === server);
  }

  /** Adds or replaces the entry of its workspace on its server. */
  remember(entry: RememberedRepository): Promise<void> {
    return this.#change((state) => {
      const others = state.repositories.filter(
        (r) => !(r.server === entry.server && r.workspace === entry.workspace),
      );
      const mine = others.filter((r) => r.server === entry.server);
      // The oldest of this server's go first when it is full; other servers' stay.
      const dropped = new Set(
        mine.slice(0, Math.max(0, mine.length + 1 - REPOSITORIES_PER_SERVER)),
      );
      state.repositories = [...others.filter((r) => !dropped.has(r)), entry];
    });
  }

  forget(server: string, workspace: string): Promise<void> {
    return this.#change((state) => {
      state.repositories = state.repositories.filter(
        (r) => !(r.server === server && r.workspace === workspace),
      );
    });
  }

  async archiveUrl(server: string): Promise<string | null> {
    return (await this.#read()).archiveUrls[server] ?? null;
  }

  /** null goes back to the default. */
  setArchiveUrl(server: string, url: string | null): Promise<void> {
    return this.#change((state) => {
      if (url === null) Reflect.deleteProperty(state.archiveUrls, server);
      else state.archiveUrls[server] = url;
    });
  }
}
