import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request } from 'undici';

export interface BenchServer {
  apiUrl: string;
  scope: string;
  workspace: string;
  /** The workspace dput-ng's profile uploads to (set up like debusine.debian.net), if any. */
  developers: string | null;
  token: string;
  serverVersion: string;
  /** The chroot the server runs in: the Debusine CLI runs there too. */
  root: string;
  /** The websocket base (`ws://…/api/ws/1.0`). */
  wsUrl: string;
  webUrl: string;
}

const SANDBOX = resolve(import.meta.dirname, '../../test/debusine-server/sandbox.sh');
const HOME = process.env.DEBUSINE_SANDBOX_HOME ?? '/var/lib/debusine-desktop/sandboxes';

function reachable(apiUrl: string): boolean {
  try {
    execFileSync('curl', ['-sSf', '-o', '/dev/null', '--max-time', '10', `${apiUrl}/1.0/whoami/`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Uses the current sandbox when it answers; only when it does not is it brought up
 * (`sandbox.sh up` may rebuild, which would disturb whoever else uses a running one).
 */
export function currentServer(): BenchServer {
  const file = join(HOME, 'current', 'sandbox.json');
  const running =
    existsSync(file) &&
    reachable((JSON.parse(readFileSync(file, 'utf8')) as { apiUrl: string }).apiUrl);
  if (!running) execFileSync('bash', [SANDBOX, 'up', 'current'], { stdio: 'inherit' });
  const info = JSON.parse(readFileSync(file, 'utf8')) as {
    apiUrl: string;
    scope: string;
    serverVersion: string;
    root: string;
    workspaces: { default: string };
    developers?: { workspace: string } | null;
    wsUrl: string;
    webUrl: string;
    users: { owner: { token: string } };
  };
  const server: BenchServer = {
    apiUrl: info.apiUrl,
    scope: info.scope,
    workspace: info.workspaces.default,
    developers: info.developers?.workspace ?? null,
    token: info.users.owner.token,
    serverVersion: info.serverVersion,
    root: info.root,
    wsUrl: info.wsUrl,
    webUrl: info.webUrl,
  };
  writeCliConfig(server);
  return server;
}

/** The Debusine CLI inside the chroot reads root's config.ini there. */
function writeCliConfig(server: BenchServer): void {
  const dir = join(server.root, 'root/.config/debusine/client');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.ini'),
    `[General]\ndefault-server = sandbox\n\n[server:sandbox]\napi-url = ${server.apiUrl}\n` +
      `scope = ${server.scope}\ntoken = ${server.token}\ndefault-workspace = ${server.workspace}\n`,
    { mode: 0o600 },
  );
}

/** Runs the Debusine CLI in the chroot, as its users would on the server's machine. */
export function runCli(server: BenchServer, args: string[]): string {
  return execFileSync(
    'chroot',
    [
      server.root,
      '/usr/bin/env',
      '-i',
      'HOME=/root',
      'LANG=C.UTF-8',
      'PATH=/usr/bin:/bin',
      'debusine',
      ...args,
    ],
    { encoding: 'utf8', maxBuffer: 256 * 2 ** 20, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

export interface FileDecl {
  size: number;
  sha256: string;
}

/** POST /artifact/ with the declared files: the raw-HTTP baseline's first step. */
export async function createArtifactRaw(
  server: BenchServer,
  files: Record<string, FileDecl>,
  kind: { category: string; data: unknown; workspace: string } = {
    category: BENCH_CATEGORY,
    data: {},
    workspace: server.workspace,
  },
): Promise<{ id: number; filesToUpload: string[] }> {
  const body = {
    ...kind,
    files: Object.fromEntries(
      Object.entries(files).map(([path, f]) => [
        path,
        { size: f.size, checksums: { sha256: f.sha256 }, type: 'file' },
      ]),
    ),
  };
  const json = await postJson<{ id: number; files_to_upload: string[] }>(
    server,
    '/1.0/artifact/',
    body,
    'creating the artifact',
  );
  return { id: json.id, filesToUpload: json.files_to_upload };
}

/** A POST of JSON to the API, answered 201 with JSON. */
export async function postJson<T>(
  server: BenchServer,
  path: string,
  body: unknown,
  what: string,
): Promise<T> {
  const response = await request(`${server.apiUrl}${path}`, {
    method: 'POST',
    headers: {
      token: server.token,
      'x-debusine-scope': server.scope,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 201) {
    throw new Error(`${what} failed: HTTP ${String(response.statusCode)}: ${text.slice(0, 500)}`);
  }
  return JSON.parse(text) as T;
}

export function uploadUrl(server: BenchServer, artifactId: number, path: string): string {
  return `${server.apiUrl}/1.0/artifact/${String(artifactId)}/files/${encodeURI(path)}/`;
}

/**
 * The category of the generic benchmark artifacts: one the app knows (its kind rules
 * refuse `debusine:test`) and whose file set is free, with empty data.
 */
export const BENCH_CATEGORY = 'debusine:work-request-debug-logs';
