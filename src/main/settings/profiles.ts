/**
 * Server profiles: which Debusine servers the user works with, one of them active.
 * Persisted as `{dataDir}/servers.json`. Tokens are never part of a profile: they live in
 * a TokenStore, keyed by the profile's id.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import { namesReadAlike, serverHost } from '../../shared/server-names';
import { normaliseApiUrl } from '../api/http';
import { readJsonFile, SerialQueue, writeJsonFile } from '../json-file';

export const serverProfileSchema = z.object({
  /** Stable id, used as the token store key and in file names. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  /** What the user calls it (the CLI's section name for imported ones). */
  name: z.string().min(1).max(200),
  apiUrl: z.string(),
  scope: z.string().min(1),
  defaultWorkspace: z.string().min(1).nullable().default(null),
  /** Where it came from, so the UI can say "imported from the Debusine CLI". */
  origin: z.enum(['manual', 'cli-import', 'enrollment']).default('manual'),
});
export type ServerProfile = z.infer<typeof serverProfileSchema>;
export type NewServerProfile = Omit<z.input<typeof serverProfileSchema>, 'id'> & { id?: string };

// z.object strips unknown keys on load: a stray `token` written by hand never round-trips.
const profilesFileSchema = z.object({
  version: z.literal(1),
  active: z.string().nullable(),
  profiles: z.array(serverProfileSchema),
});
export type ProfilesFile = z.infer<typeof profilesFileSchema>;

export interface ProfileStoreEvents {
  changed: [ProfilesFile];
}

/** Turns a name into an id: lower case, `-` for anything else, unique among `taken`. */
export function profileIdFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || 'server';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${String(n)}`;
  return id;
}

export class ProfileStore extends EventEmitter<ProfileStoreEvents> {
  readonly path: string;
  readonly #queue = new SerialQueue();

  constructor(dataDir: string) {
    super();
    this.path = join(dataDir, 'servers.json');
  }

  async load(): Promise<ProfilesFile> {
    const raw = await readJsonFile(this.path);
    if (raw === undefined) return { version: 1, active: null, profiles: [] };
    const parsed = profilesFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new DebusineError(
        'validation',
        `The server list ${this.path} is damaged at '${issue?.path.join('.') ?? ''}': ${
          issue?.message ?? 'invalid'
        }`,
        { file: this.path },
      );
    }
    return parsed.data;
  }

  async list(): Promise<ServerProfile[]> {
    return (await this.load()).profiles;
  }

  async get(id: string): Promise<ServerProfile | undefined> {
    return (await this.list()).find((p) => p.id === id);
  }

  async active(): Promise<ServerProfile | undefined> {
    const file = await this.load();
    return file.profiles.find((p) => p.id === file.active);
  }

  /** Adds a profile; its id is derived from the name unless given. */
  add(profile: NewServerProfile): Promise<ServerProfile> {
    return this.#update((file) => {
      const taken = new Set(file.profiles.map((p) => p.id));
      if (profile.id !== undefined && taken.has(profile.id)) {
        throw new DebusineError('conflict', `A server profile with id ${profile.id} exists`);
      }
      refuseLookAlike(profile.name, file.profiles);
      const created = parseProfile({
        ...profile,
        id: profile.id ?? profileIdFor(profile.name, taken),
      });
      file.profiles.push(created);
      file.active ??= created.id;
      return created;
    });
  }

  update(id: string, changes: Partial<Omit<NewServerProfile, 'id'>>): Promise<ServerProfile> {
    return this.#update((file) => {
      const index = file.profiles.findIndex((p) => p.id === id);
      const current = file.profiles[index];
      if (!current) throw new DebusineError('not-found', `No server profile ${id}`);
      if (changes.name !== undefined && changes.name !== current.name) {
        refuseLookAlike(
          changes.name,
          file.profiles.filter((p) => p.id !== id),
        );
      }
      const updated = parseProfile({ ...current, ...changes, id });
      file.profiles[index] = updated;
      return updated;
    });
  }

  /** Removes a profile (the caller deletes its token); the next one becomes active. */
  remove(id: string): Promise<void> {
    return this.#update((file) => {
      file.profiles = file.profiles.filter((p) => p.id !== id);
      if (file.active === id) file.active = file.profiles[0]?.id ?? null;
    });
  }

  setActive(id: string): Promise<void> {
    return this.#update((file) => {
      if (!file.profiles.some((p) => p.id === id)) {
        throw new DebusineError('not-found', `No server profile ${id}`);
      }
      file.active = id;
    });
  }

  /** Runs a read-modify-write under the queue; `change` may throw to leave the file as is. */
  #update<T>(change: (file: ProfilesFile) => T): Promise<T> {
    return this.#queue.run(async () => {
      const file = await this.load();
      const result = change(file);
      await writeJsonFile(this.path, file);
      this.emit('changed', file);
      return result;
    });
  }

  /** For callers that must change several profiles in one write (the CLI import). */
  transaction<T>(change: (file: ProfilesFile) => T): Promise<T> {
    return this.#update(change);
  }
}

/**
 * The profile among `profiles` whose name reads the same as `name` (shared/server-names.ts):
 * identical, or alike but for look-alike letters, case, or compatibility forms.
 */
export function profileNamedAlike(
  name: string,
  profiles: readonly ServerProfile[],
): ServerProfile | undefined {
  return profiles.find((p) => namesReadAlike(p.name, name));
}

/**
 * Refuses a name that reads the same as another server's: the two could not be told apart
 * where a server is named (a link switching to one would pass for the other). The error
 * names the server already there, with its host.
 */
function refuseLookAlike(name: string, profiles: readonly ServerProfile[]): void {
  const existing = profileNamedAlike(name, profiles);
  if (!existing) return;
  const host = serverHost(existing.apiUrl);
  if (existing.name === name) {
    throw new DebusineError(
      'conflict',
      `A server profile named "${existing.name}" (${host}) exists`,
      { field: 'name' },
    );
  }
  throw new DebusineError(
    'conflict',
    `The name "${name}" reads the same as the server "${existing.name}" (${host}) already in the app: choose a name that reads differently.`,
    { field: 'name' },
  );
}

function parseProfile(value: unknown): ServerProfile {
  const parsed = serverProfileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DebusineError(
      'validation',
      `Invalid server profile field '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`,
      { field: issue?.path.join('.') },
    );
  }
  return { ...parsed.data, apiUrl: normaliseApiUrl(parsed.data.apiUrl) };
}
