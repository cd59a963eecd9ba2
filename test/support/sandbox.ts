/**
 * Where the tests find a Debusine server: the sandbox's JSON file, or a server of your own
 * named by environment variables (see README, "Testing against your own server").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Flavour = 'current' | 'earlier';

export interface TestUser {
  username: string;
  email?: string;
  token: string;
  password?: string;
}

export interface TestServer {
  flavour: Flavour;
  /** True for the project's own sandbox, false for a server named by DEBUSINE_TEST_*. */
  sandbox: boolean;
  serverVersion: string;
  apiUrl: string;
  webUrl: string;
  scope: string;
  workspaces: { default: string; second?: string };
  users: { owner: TestUser; noRoles?: TestUser };
  /** Whether a worker runs tasks, so that work requests complete. */
  worker: boolean;
  /**
   * Templates for real Debian work (sbuild and the whole debian_pipeline), when a worker
   * runs such tasks; null when it runs noop only (the earlier sandbox).
   */
  realWork: RealWork | null;
  /**
   * The upload journey of debusine.debian.net: a workspace that dput-ng uploads to, and
   * templates that end by uploading to an FTP queue; null where the server has none (the
   * earlier sandbox, a server of your own).
   */
  developers: Developers | null;
  /**
   * Personal APT repositories as debusine.debian.net has them: templates that make one, a
   * signing worker that signs its indexes, and the archive host that serves it; null where
   * the server has none.
   */
  repositories: Repositories | null;
  /** The sandbox's chroot (sandboxes only), for set-up through debusine-admin. */
  root?: string;
}

export interface RealWork {
  /** An `sbuild` workflow template whose runtime parameter `input` takes the source. */
  sbuildTemplate: string;
  /** A `debian_pipeline` template whose runtime parameter `source_artifact` takes it. */
  pipelineTemplate: string;
}

export interface Developers {
  /** The workspace dput-ng uploads to; it inherits System (for the build environments). */
  workspace: string;
  /**
   * `debian_pipeline` templates (runtime parameter `source_artifact`) that, after the build
   * and QA, wait for the uploader's signature and then upload the source to `uploadQueue`.
   */
  templates: { unstable: string; experimental: string };
  /** The queue's URL, and the directory on this machine where uploaded files land. */
  uploadQueue: { url: string; dir: string };
  /** A dput-ng configuration directory: `profiles/<dputHost>.json` is the sandbox's profile. */
  dputProfiles: string;
  dputHost: string;
}

export interface Repositories {
  /** `create_child_workspace` templates in `baseWorkspace` (runtime: suffix, public). */
  templates: { experiment: string; kept: string };
  baseWorkspace: string;
  /** The archive host, over HTTP and over TLS (private repositories need the latter). */
  archiveUrl: string;
  archiveTlsUrl: string;
  /** The API over TLS, as the signing worker reaches it. */
  tlsApiUrl: string;
  /** The certificate authority of the sandbox's TLS certificate (trusted in its chroot). */
  caCertificate: string;
  signingWorker: string;
}

export const SANDBOX_HOME =
  process.env.DEBUSINE_SANDBOX_HOME ?? '/var/lib/debusine-desktop/sandboxes';

function envPrefix(flavour: Flavour): string {
  return flavour === 'current' ? 'DEBUSINE_TEST_' : 'DEBUSINE_TEST_EARLIER_';
}

/** The server named by DEBUSINE_TEST_API_URL (or DEBUSINE_TEST_EARLIER_API_URL), if any. */
export function externalServer(flavour: Flavour): TestServer | undefined {
  const prefix = envPrefix(flavour);
  const apiUrl = process.env[`${prefix}API_URL`];
  if (!apiUrl) return undefined;
  const token = process.env[`${prefix}TOKEN`];
  if (!token) throw new Error(`${prefix}API_URL is set, so ${prefix}TOKEN must be set too`);
  const noRoleToken = process.env[`${prefix}NOROLE_TOKEN`];
  return {
    flavour,
    sandbox: false,
    serverVersion: process.env[`${prefix}SERVER_VERSION`] ?? 'unknown',
    apiUrl,
    webUrl: apiUrl.replace(/\/api\/?$/, ''),
    scope: process.env[`${prefix}SCOPE`] ?? 'debusine',
    workspaces: { default: process.env[`${prefix}WORKSPACE`] ?? 'System' },
    users: {
      owner: { username: process.env[`${prefix}USERNAME`] ?? '', token },
      ...(noRoleToken ? { noRoles: { username: '', token: noRoleToken } } : {}),
    },
    worker: process.env[`${prefix}NO_WORKER`] === undefined,
    realWork: externalRealWork(prefix),
    developers: null,
    repositories: null,
  };
}

function externalRealWork(prefix: string): RealWork | null {
  const pipelineTemplate = process.env[`${prefix}PIPELINE_TEMPLATE`];
  const sbuildTemplate = process.env[`${prefix}SBUILD_TEMPLATE`];
  if (!pipelineTemplate || !sbuildTemplate) return null;
  return { sbuildTemplate, pipelineTemplate };
}

/** True when tests of this flavour have a server: the sandbox, or the variables. */
export function usingExternalServers(): boolean {
  return process.env.DEBUSINE_TEST_API_URL !== undefined;
}

export function testServer(flavour: Flavour): TestServer {
  const external = externalServer(flavour);
  if (external) return external;
  const file = join(SANDBOX_HOME, flavour, 'sandbox.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(
      `No ${flavour} Debusine sandbox at ${file}: run \`npm run sandbox:up\` (as root), ` +
        `or set ${envPrefix(flavour)}API_URL and ${envPrefix(flavour)}TOKEN`,
    );
  }
  const state = JSON.parse(text) as Omit<
    TestServer,
    'sandbox' | 'realWork' | 'developers' | 'repositories'
  > & {
    realWork?: RealWork | null;
    developers?: Developers | null;
    repositories?: Repositories | null;
  };
  // A sandbox made before it ran real work, or before it had the developers workspace, has
  // no such field.
  return {
    ...state,
    realWork: state.realWork ?? null,
    developers: state.developers ?? null,
    repositories: state.repositories ?? null,
    sandbox: true,
  };
}

/** Whether a server of this flavour is available to the tests at all. */
export function hasServer(flavour: Flavour): boolean {
  if (externalServer(flavour)) return true;
  if (usingExternalServers()) return false;
  return true;
}
