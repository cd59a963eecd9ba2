/**
 * Server suggestions for the first start: the Debusine CLI's servers, a local sandbox that
 * answers, and debusine.debian.net. Tokens found in the CLI config or the sandbox file stay
 * here (main side): the renderer sees only `hasToken`, and adding a preset stores the token.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { z } from 'zod';
import { normaliseApiUrl } from '../api/http';
import { defaultCliConfigPath, readCliConfig } from '../settings/cli-config';
import type { ServerPreset } from '../../shared/contract';

const DEFAULT_SANDBOX_HOME = '/var/lib/debusine-desktop/sandboxes';

export const PUBLIC_PRESET = {
  name: 'debusine.debian.net',
  apiUrl: 'https://debusine.debian.net/api',
  scope: 'debian',
  defaultWorkspace: 'developers',
} as const;

/** A preset with what only main may know. */
export interface PresetWithSecret extends Omit<ServerPreset, 'existingServerId'> {
  token: string | undefined;
}

export interface PresetSources {
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Whether an API answers (the sandbox is only offered when it does). */
  probe?: (apiUrl: string) => Promise<boolean>;
}

export function cliConfigPathFrom(env: NodeJS.ProcessEnv, home = homedir()): string {
  // An empty variable means unset, as in a shell.
  const configured = env.DEBUSINE_DESKTOP_CLI_CONFIG;
  return configured !== undefined && configured !== '' ? configured : defaultCliConfigPath(home);
}

export function sandboxFileFrom(env: NodeJS.ProcessEnv): string {
  // test/debusine-server/sandbox.sh writes each flavour's file in a folder of its own; the
  // current flavour is the one suggested. An empty variable means unset, as in a shell.
  const configured = env.DEBUSINE_SANDBOX_HOME;
  const home = configured !== undefined && configured !== '' ? configured : DEFAULT_SANDBOX_HOME;
  return join(home, 'current', 'sandbox.json');
}

const sandboxSchema = z.looseObject({
  apiUrl: z.string(),
  scope: z.string().min(1),
  workspaces: z.looseObject({ default: z.string().min(1) }).optional(),
  users: z
    .looseObject({ owner: z.looseObject({ username: z.string(), token: z.string() }) })
    .optional(),
});

async function answers(apiUrl: string): Promise<boolean> {
  try {
    const response = await request(`${normaliseApiUrl(apiUrl)}/1.0/whoami/`, {
      headersTimeout: 2000,
      bodyTimeout: 2000,
    });
    await response.body.dump();
    return response.statusCode < 500;
  } catch {
    return false;
  }
}

export async function findPresets(sources: PresetSources = {}): Promise<PresetWithSecret[]> {
  const env = sources.env ?? process.env;
  const presets: PresetWithSecret[] = [];
  try {
    const config = await readCliConfig(cliConfigPathFrom(env, sources.home));
    for (const server of config.servers) {
      presets.push({
        presetId: `cli-config:${server.name}`,
        name: server.name,
        apiUrl: normaliseApiUrl(server.apiUrl),
        scope: server.scope,
        defaultWorkspace: server.defaultWorkspace ?? null,
        source: 'cli-config',
        hasToken: server.token !== undefined,
        token: server.token,
      });
    }
  } catch {
    // No CLI config (the usual case) or an unreadable one: servers.importCliConfig reports why.
  }
  try {
    const raw: unknown = JSON.parse(await readFile(sandboxFileFrom(env), 'utf8'));
    const sandbox = sandboxSchema.parse(raw);
    const apiUrl = normaliseApiUrl(sandbox.apiUrl);
    if (await (sources.probe ?? answers)(apiUrl)) {
      const owner = sandbox.users?.owner;
      presets.push({
        presetId: 'sandbox:local',
        name: `Local sandbox (${new URL(apiUrl).host})`,
        apiUrl,
        scope: sandbox.scope,
        defaultWorkspace: sandbox.workspaces?.default ?? null,
        source: 'sandbox',
        hasToken: owner !== undefined,
        token: owner?.token,
      });
    }
  } catch {
    // No sandbox here, or not readable by this user: nothing to offer.
  }
  presets.push({
    presetId: 'public:debusine.debian.net',
    ...PUBLIC_PRESET,
    source: 'public',
    hasToken: false,
    token: undefined,
  });
  return presets;
}

/** What the renderer may see of a preset. */
export function publicPreset(
  preset: PresetWithSecret,
  existingServerId: string | null,
): ServerPreset {
  return {
    presetId: preset.presetId,
    name: preset.name,
    apiUrl: preset.apiUrl,
    scope: preset.scope,
    defaultWorkspace: preset.defaultWorkspace,
    source: preset.source,
    hasToken: preset.hasToken,
    existingServerId,
  };
}
