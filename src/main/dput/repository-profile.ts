/**
 * The dput-ng profile of one of the user's repositories, written by the app so that
 * `dput NAME foo.changes` publishes where the app's "Publish to" does: the upload goes to
 * the repository's workspace and starts `publish-to-<suite>` there for the suite the
 * .changes' Distribution names (and, for a repository of one suite, for any Distribution).
 * The rest (the server, its scope, the hooks, the task data) comes from the server's own
 * dput-ng profile when the user has one, so that both reach the same server the same way.
 *
 * The file is the user's, in ~/.dput.d: the app writes only a file it wrote before (it
 * carries REPOSITORY_MARKER) or none at all, and never one whose name it did not make from
 * the workspace's. The profiles of repositories are not the server's profile:
 * DputProfiles.forServer passes over them.
 */
import { join } from 'node:path';
import type { JsonObject } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import { readJsonFile, writeJsonFile } from '../json-file';

/** The key that says the app wrote a profile, with the workspace it is for. */
export const REPOSITORY_MARKER = 'debusine_desktop_repository';

/** What a profile name may hold: it is a file name, and a word on dput's command line. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,200}$/;

/** Keys of the server's profile that say where and what to start: the repository's own. */
const REPLACED = [
  'debusine_workflow',
  'debusine_workflows_by_distribution',
  'debusine_workspace',
  REPOSITORY_MARKER,
];

export interface RepositoryProfileRequest {
  /** The directory dput-ng reads last, the user's (~/.dput.d). */
  dir: string;
  /** The server's own profile's fields (DputProfiles.forServer), or null when it has none. */
  server: JsonObject | null;
  /** The API's host name (a port is not part of a dput-ng fqdn), and the scope. */
  host: string;
  scope: string;
  workspace: string;
  /** The suites with a publish-to template. */
  suites: readonly string[];
}

export interface WrittenProfile {
  name: string;
  file: string;
  fields: JsonObject;
}

export function repositoryProfileName(host: string, workspace: string): string {
  const name = `${host}-${workspace}`;
  const plain = (part: string): boolean => PROFILE_NAME.test(part) && !part.includes('..');
  if (!plain(host) || !plain(workspace)) {
    throw new DebusineError(
      'validation',
      `No dput-ng profile can be named after ${JSON.stringify(workspace)} on ${host}: a profile name is a file name of letters, digits and . _ + -`,
      { field: 'workspace' },
    );
  }
  return name;
}

/** The profile's fields: the server's profile with the repository's workspace and suites. */
export function repositoryProfileFields(request: RepositoryProfileRequest): JsonObject {
  const base: JsonObject = {};
  for (const [key, value] of Object.entries(request.server ?? {})) {
    if (!REPLACED.includes(key)) base[key] = value;
  }
  const byDistribution: JsonObject = {};
  for (const suite of request.suites) byDistribution[suite] = `publish-to-${suite}`;
  const [only] = request.suites;
  if (request.suites.length === 1 && only !== undefined) byDistribution['*'] = `publish-to-${only}`;
  return {
    // What the debusine-client package's profile for debusine.debian.net sets, where the
    // server has no profile of its own to take them from.
    allow_unsigned_uploads: true,
    incoming: '/',
    meta: 'debusine',
    method: 'debusine',
    debusine_workflow_data: { source_artifact: '@UPLOAD@' },
    ...base,
    fqdn: typeof base.fqdn === 'string' ? base.fqdn : request.host,
    debusine_scope: request.scope,
    debusine_workspace: request.workspace,
    debusine_workflows_by_distribution: byDistribution,
    [REPOSITORY_MARKER]: request.workspace,
  };
}

/**
 * Who wrote the profile file of `workspace`: nobody yet (absent), the app for that
 * workspace (mine), or someone else (theirs, including a file that is not JSON).
 */
async function ownerOf(file: string, workspace: string): Promise<'absent' | 'mine' | 'theirs'> {
  let existing: unknown;
  try {
    existing = await readJsonFile(file);
  } catch {
    return 'theirs';
  }
  if (existing === undefined) return 'absent';
  const mine =
    typeof existing === 'object' &&
    existing !== null &&
    !Array.isArray(existing) &&
    (existing as JsonObject)[REPOSITORY_MARKER] === workspace;
  return mine ? 'mine' : 'theirs';
}

function profileFile(dir: string, host: string, workspace: string): { name: string; file: string } {
  const name = repositoryProfileName(host, workspace);
  return { name, file: join(dir, 'profiles', `${name}.json`) };
}

/** Whether the app has written the repository's profile in `dir` (and may update it). */
export async function hasRepositoryProfile(
  dir: string,
  host: string,
  workspace: string,
): Promise<boolean> {
  let file: string;
  try {
    ({ file } = profileFile(dir, host, workspace));
  } catch {
    // A name no profile can have: the app never wrote one.
    return false;
  }
  return (await ownerOf(file, workspace)) === 'mine';
}

/**
 * Writes the repository's profile, replacing the one the app wrote before; refuses to
 * replace a file of that name that the app did not write.
 */
export async function writeRepositoryProfile(
  request: RepositoryProfileRequest,
): Promise<WrittenProfile> {
  const { name, file } = profileFile(request.dir, request.host, request.workspace);
  if ((await ownerOf(file, request.workspace)) === 'theirs') {
    throw new DebusineError(
      'conflict',
      `${file} is a dput-ng profile the app did not write: it is left as it is. Move it away to let the app write the repository's profile there.`,
      { file },
    );
  }
  const fields = repositoryProfileFields(request);
  await writeJsonFile(file, fields);
  return { name, file, fields };
}
