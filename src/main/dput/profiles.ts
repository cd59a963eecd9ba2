/**
 * dput-ng's profiles, read as dput-ng reads them, so that a .changes dropped on the app goes
 * where `dput HOST foo.changes` would send it: which workspace, which workflow for the
 * .changes' Distribution, with which task data.
 *
 * dput-ng looks in /usr/share/dput-ng, /etc/dput.d and ~/.dput.d, in that order, for
 * `profiles/NAME.json`; each file found updates the one before it (so the user's wins), a
 * `meta` fills in keys the file does not set from `metas/META.json`, `DEFAULT` is the base
 * of every profile, and keys starting with `+`, `-` or `=` add to, take from or replace a
 * list. The debusine-client package ships the debusine.debian.net profile; it is built in
 * here too, so that the app knows it without that package installed.
 *
 * The files are the user's, but read as untrusted input all the same: bounded in size, and
 * a file that is not a JSON object is named in the problem, not thrown past the caller.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../../shared/contract';
import { readSmallFile } from '../small-file';
import { REPOSITORY_MARKER } from './repository-profile';

/** Where dput-ng looks, from the weakest to the strongest. */
export function defaultDputDirs(): string[] {
  return ['/usr/share/dput-ng', '/etc/dput.d', join(homedir(), '.dput.d')];
}

/** The profile the debusine-client package installs for debusine.debian.net. */
export const BUILT_IN_PROFILES: Readonly<Record<string, JsonObject>> = {
  'debusine.debian.net': {
    allow_unsigned_uploads: true,
    debusine_scope: 'debian',
    debusine_workflows_by_distribution: {
      sid: 'upload-to-unstable',
      '*': 'upload-to-{distribution}',
    },
    debusine_workflow_data: { source_artifact: '@UPLOAD@' },
    debusine_workspace: 'developers',
    fqdn: 'debusine.debian.net',
    incoming: '/',
    meta: 'debusine',
    method: 'debusine',
  },
};

/** A profile is a few hundred bytes; anything this large is not one. */
const MAX_PROFILE_BYTES = 256 * 1024;
/** dput-ng's profile names are file names; a directory of thousands is not a config. */
const MAX_PROFILES = 1000;

export interface DputProfile {
  name: string;
  /** The merged keys. */
  fields: JsonObject;
  /** The files it was made of, weakest first ("built in" for the built-in profile). */
  files: string[];
}

export interface ProfileProblem {
  file: string;
  message: string;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(file: string, problems: ProfileProblem[]): Promise<JsonObject | null> {
  const read = await readSmallFile(file, MAX_PROFILE_BYTES);
  if (read === undefined) return null;
  if ('tooLarge' in read) {
    problems.push({ file, message: `is ${String(read.tooLarge)} bytes, not a dput-ng profile` });
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch (error) {
    problems.push({ file, message: `is not JSON (${(error as Error).message})` });
    return null;
  }
  if (!isObject(parsed)) {
    problems.push({ file, message: 'is not a JSON object' });
    return null;
  }
  return parsed;
}

/** dput-ng's `+key`, `-key` and `=key`: add to, take from or replace the list `key`. */
function cleanup(obj: JsonObject): JsonObject {
  const operators = Object.keys(obj).filter((key) => ['+', '-', '='].includes(key[0] ?? ''));
  const out: JsonObject = Object.fromEntries(
    Object.entries(obj).filter(([key]) => !operators.includes(key)),
  );
  for (const key of operators) {
    const op = key[0];
    const name = key.slice(1);
    const change = obj[key];
    const current: unknown = out[name];
    const old: unknown[] = Array.isArray(current) ? current : [];
    const given: unknown[] = Array.isArray(change) ? change : [];
    out[name] =
      op === '='
        ? change
        : op === '+'
          ? [...new Set([...old, ...given])]
          : old.filter((v) => !given.includes(v));
  }
  return out;
}

export class DputProfiles {
  readonly dirs: readonly string[];
  readonly problems: ProfileProblem[] = [];

  constructor(dirs: readonly string[] = defaultDputDirs()) {
    this.dirs = dirs;
  }

  /**
   * `CLASS/NAME.json` in one directory, with its meta's keys filled in. `metas` are the
   * metas being filled in above this one: a meta that names one of them (a → b → a) would
   * never end, so the loop is said and left out, as a meta naming itself is.
   */
  async #layer(
    dir: string,
    cls: string,
    name: string,
    metas: readonly string[],
  ): Promise<JsonObject | null> {
    const file = join(dir, cls, `${name}.json`);
    const obj = await readJson(file, this.problems);
    if (!obj) return null;
    const meta = obj.meta;
    if (typeof meta === 'string' && !(cls === 'metas' && meta === name)) {
      if (metas.includes(meta)) {
        this.problems.push({
          file,
          message: `its meta ${JSON.stringify(meta)} loops: ${[...metas, meta].join(' → ')}`,
        });
        return obj;
      }
      const metaFields = await this.#merged('metas', meta, false, [...metas, meta]);
      for (const [key, value] of Object.entries(metaFields.fields)) {
        if (!(key in obj)) obj[key] = value;
      }
    }
    return obj;
  }

  async #merged(
    cls: string,
    name: string,
    withBuiltIn: boolean,
    metas: readonly string[] = cls === 'metas' ? [name] : [],
  ): Promise<DputProfile> {
    let fields: JsonObject = {};
    const files: string[] = [];
    const builtIn = withBuiltIn && cls === 'profiles' ? BUILT_IN_PROFILES[name] : undefined;
    if (builtIn) {
      fields = { ...builtIn };
      files.push('built in');
    }
    for (const dir of this.dirs) {
      const layer = await this.#layer(dir, cls, name, metas);
      if (!layer) continue;
      fields = cleanup({ ...fields, ...layer });
      files.push(join(dir, cls, `${name}.json`));
    }
    return { name, fields, files };
  }

  /** The profile NAME as dput-ng would use it: DEFAULT, then each file of that name. */
  async profile(name: string): Promise<DputProfile | null> {
    const own = await this.#merged('profiles', name, true);
    if (own.files.length === 0) return null;
    const defaults = await this.#merged('profiles', 'DEFAULT', false);
    return { name, fields: cleanup({ ...defaults.fields, ...own.fields }), files: own.files };
  }

  /** Every profile name in the directories, and the built-in ones. */
  async names(): Promise<string[]> {
    const names = new Set(Object.keys(BUILT_IN_PROFILES));
    for (const dir of this.dirs) {
      const entries = await readdir(join(dir, 'profiles')).catch(() => [] as string[]);
      for (const entry of entries.slice(0, MAX_PROFILES)) {
        if (entry.endsWith('.json') && entry !== 'DEFAULT.json') names.add(entry.slice(0, -5));
      }
    }
    return [...names].sort();
  }

  /**
   * The Debusine profile for a server: method `debusine`, its `fqdn` the server's host name,
   * its scope the server's. That is how the Debusine client finds the server of a profile
   * (its config's API URL with that host name and that scope): a port is not part of it.
   * A profile named after the host comes first, as `dput HOST` would pick it; then the
   * others by name.
   */
  async forServer(apiUrl: string, scope: string | null): Promise<DputProfile | null> {
    let host: string;
    let hostname: string;
    try {
      ({ host, hostname } = new URL(apiUrl));
    } catch {
      return null;
    }
    const names = await this.names();
    const first = (n: string) => n === host || n === hostname;
    const ordered = [...names.filter(first), ...names.filter((n) => !first(n))];
    for (const name of ordered) {
      const profile = await this.profile(name);
      if (!profile) continue;
      const f = profile.fields;
      if (f.method !== 'debusine' || (f.fqdn !== hostname && f.fqdn !== host)) continue;
      // A repository's profile, which the app wrote, publishes to that repository only.
      if (f[REPOSITORY_MARKER] !== undefined) continue;
      if (scope !== null && typeof f.debusine_scope === 'string' && f.debusine_scope !== scope) {
        continue;
      }
      return profile;
    }
    return null;
  }
}

export type WorkflowChoice =
  | {
      template: string;
      workspace: string;
      data: JsonObject;
    }
  | { problem: string };

/**
 * The workflow dput-ng's Debusine hook starts after the upload: the profile's
 * `debusine_workflow`, else `debusine_workflows_by_distribution` for the Distribution (or
 * its `*`, with `{distribution}` replaced).
 */
export function chooseWorkflow(profile: DputProfile, distribution: string): WorkflowChoice {
  const f = profile.fields;
  const workspace = typeof f.debusine_workspace === 'string' ? f.debusine_workspace : null;
  if (workspace === null) {
    return { problem: `The dput-ng profile ${profile.name} names no debusine_workspace` };
  }
  const data = isObject(f.debusine_workflow_data) ? f.debusine_workflow_data : {};
  if (typeof f.debusine_workflow === 'string') {
    return { template: f.debusine_workflow, workspace, data };
  }
  const table = isObject(f.debusine_workflows_by_distribution)
    ? f.debusine_workflows_by_distribution
    : {};
  const entry = Object.hasOwn(table, distribution) ? table[distribution] : table['*'];
  if (typeof entry !== 'string') {
    return {
      problem: `No Debusine workflow is configured for the distribution ${JSON.stringify(distribution)} in the dput-ng profile ${profile.name}`,
    };
  }
  return { template: entry.replaceAll('{distribution}', distribution), workspace, data };
}
