/**
 * Who is who on each server. Work requests name their creator by id and whoami names the
 * signed-in user by username only, so the "mine" filter and the "mine" notifications need
 * the user's own id. It is learned, per server profile and username, from:
 *   - the `created_by` of a work request or workflow the app starts (every server), and
 *   - the names of the creators the list shows (0.12+ servers name a user id, see
 *     api/users.ts): when one of them is the signed-in user's name, that id is theirs.
 * The learned id is kept in `identities.json`, so it survives restarts; names are cached
 * in memory for the session.
 */
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../json-file';

export interface UserNameSource {
  readonly apiUrl: string;
  userName(id: number): Promise<string | null>;
}

const fileSchema = z.record(
  z.string(),
  z.object({ apiUrl: z.string(), username: z.string(), userId: z.number().int().nullable() }),
);
type Identities = z.infer<typeof fileSchema>;

/** How many names are asked for at once. */
const CONCURRENCY = 4;

export class UserDirectory {
  readonly #file: string;
  #identities: Identities = {};
  #loaded: Promise<void> | undefined;
  /** `${apiUrl}` → id → name (null: the server does not say). */
  readonly #names = new Map<string, Map<number, string | null>>();
  readonly #inflight = new Map<string, Promise<string | null>>();
  /** Ids learned from started work requests before the username was known. */
  readonly #unclaimed = new Map<string, number>();

  constructor(file: string) {
    this.#file = file;
  }

  async #load(): Promise<void> {
    this.#loaded ??= (async () => {
      try {
        const parsed = fileSchema.safeParse(await readJsonFile(this.#file));
        // A damaged file only costs re-learning the ids.
        if (parsed.success) this.#identities = parsed.data;
      } catch {
        this.#identities = {};
      }
    })();
    await this.#loaded;
  }

  async #save(): Promise<void> {
    await writeJsonFile(this.#file, this.#identities, 0o600);
  }

  /** The signed-in user's id on this server, when known. */
  async selfId(serverId: string, apiUrl: string, username: string): Promise<number | null> {
    await this.noteUser(serverId, apiUrl, username);
    return this.#identities[serverId]?.userId ?? null;
  }

  /** whoami said who is signed in: start over when it is someone else (or another URL). */
  async noteUser(serverId: string, apiUrl: string, username: string): Promise<void> {
    await this.#load();
    let entry = this.#identities[serverId];
    let dirty = false;
    if (entry?.username !== username || entry.apiUrl !== apiUrl) {
      entry = { apiUrl, username, userId: null };
      this.#identities[serverId] = entry;
      dirty = true;
    }
    if (entry.userId === null) {
      const unclaimed = this.#unclaimed.get(serverId);
      const named = this.#idNamed(apiUrl, username);
      const id = unclaimed ?? named;
      if (id !== undefined) {
        entry.userId = id;
        dirty = true;
      }
    }
    this.#unclaimed.delete(serverId);
    if (dirty) await this.#save();
  }

  /** The app started a work request here: its creator is the signed-in user. */
  async learnSelf(serverId: string, apiUrl: string, userId: number): Promise<void> {
    await this.#load();
    const entry = this.#identities[serverId];
    if (entry?.apiUrl !== apiUrl) {
      this.#unclaimed.set(serverId, userId);
      return;
    }
    if (entry.userId === userId) return;
    entry.userId = userId;
    await this.#save();
  }

  /**
   * Names for these user ids, as far as the server says (ids it does not name are left
   * out). A failure to ask leaves the id out this time and asks again next time.
   */
  async names(
    serverId: string,
    source: UserNameSource,
    ids: Iterable<number | null | undefined>,
  ): Promise<Record<string, string>> {
    const wanted = [...new Set(ids)].filter(
      (id): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id > 0,
    );
    const cache = this.#cacheFor(source.apiUrl);
    const queue = wanted.filter((id) => !cache.has(id));
    const worker = async (): Promise<void> => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        await this.#resolve(source, id).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    const out: Record<string, string> = {};
    for (const id of wanted) {
      const name = cache.get(id);
      if (name) out[String(id)] = name;
    }
    await this.#claimFromNames(serverId, source.apiUrl);
    return out;
  }

  /** Whether a work request's creator is the signed-in user (`username`). */
  async isMine(
    serverId: string,
    source: UserNameSource,
    username: string,
    createdBy: number | null | undefined,
  ): Promise<boolean> {
    if (typeof createdBy !== 'number') return false;
    const self = await this.selfId(serverId, source.apiUrl, username);
    if (self !== null) return self === createdBy;
    const names = await this.names(serverId, source, [createdBy]);
    return names[String(createdBy)] === username;
  }

  #cacheFor(apiUrl: string): Map<number, string | null> {
    let cache = this.#names.get(apiUrl);
    if (!cache) {
      cache = new Map();
      this.#names.set(apiUrl, cache);
    }
    return cache;
  }

  async #resolve(source: UserNameSource, id: number): Promise<string | null> {
    const key = `${source.apiUrl}#${String(id)}`;
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = source.userName(id).then((name) => {
        this.#cacheFor(source.apiUrl).set(id, name);
        return name;
      });
      pending
        .finally(() => {
          this.#inflight.delete(key);
        })
        .catch(() => undefined);
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  #idNamed(apiUrl: string, username: string): number | undefined {
    for (const [id, name] of this.#cacheFor(apiUrl)) if (name === username) return id;
    return undefined;
  }

  async #claimFromNames(serverId: string, apiUrl: string): Promise<void> {
    const entry = this.#identities[serverId];
    if (entry?.apiUrl !== apiUrl || entry.userId !== null) return;
    const id = this.#idNamed(apiUrl, entry.username);
    if (id === undefined) return;
    entry.userId = id;
    await this.#save();
  }
}
