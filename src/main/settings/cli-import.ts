/**
 * Importing the Debusine CLI's servers as profiles, so an existing CLI user starts signed
 * in. The import only adds: it never writes the CLI's file, never changes or removes an
 * existing profile, and never replaces a token already stored. If the file cannot be
 * parsed, nothing at all is imported and the error names the file and line.
 */
import { normaliseApiUrl } from '../api/http';
import { defaultCliConfigPath, readCliConfig } from './cli-config';
import { profileIdFor, profileNamedAlike, type ProfileStore, type ServerProfile } from './profiles';
import { serverHost } from '../../shared/server-names';
import { tokenOriginOf, type TokenStore } from './token-store';

export interface CliImportResult {
  file: string;
  imported: { name: string; profileId: string; hasToken: boolean }[];
  skipped: { name: string; reason: string }[];
  /** The profile made active (the CLI's default server), when none was active before. */
  activated?: string;
}

function sameServer(a: { apiUrl: string; scope: string }, b: ServerProfile): boolean {
  return normaliseApiUrl(a.apiUrl) === b.apiUrl && a.scope === b.scope;
}

export async function importCliConfig(options: {
  profiles: ProfileStore;
  tokens: TokenStore;
  /** Default: $HOME/.config/debusine/client/config.ini. */
  path?: string;
}): Promise<CliImportResult> {
  const file = options.path ?? defaultCliConfigPath();
  // Parse everything first: a malformed file throws here, before any change.
  const config = await readCliConfig(file);
  const result: CliImportResult = {
    file,
    imported: [],
    skipped: config.problems.map((p) => ({
      name: p.section,
      reason: `line ${String(p.line)}: ${p.reason}`,
    })),
  };
  const tokensToStore: { profileId: string; token: string; apiUrl: string }[] = [];

  await options.profiles.transaction((state) => {
    for (const server of config.servers) {
      let apiUrl: string;
      try {
        apiUrl = normaliseApiUrl(server.apiUrl);
      } catch {
        result.skipped.push({
          name: server.name,
          reason: `line ${String(server.line)}: api-url is not an http(s) URL`,
        });
        continue;
      }
      const existing = state.profiles.find(
        (p) => p.name === server.name || sameServer({ apiUrl, scope: server.scope }, p),
      );
      if (existing) {
        result.skipped.push({
          name: server.name,
          reason: `already set up as "${existing.name}" (left unchanged)`,
        });
        continue;
      }
      // A name that reads as another server's would pass for it wherever servers are named.
      const alike = profileNamedAlike(server.name, state.profiles);
      if (alike) {
        result.skipped.push({
          name: server.name,
          reason: `its name reads the same as the server "${alike.name}" (${serverHost(alike.apiUrl)})`,
        });
        continue;
      }
      const id = profileIdFor(server.name, new Set(state.profiles.map((p) => p.id)));
      state.profiles.push({
        id,
        name: server.name,
        apiUrl,
        scope: server.scope,
        defaultWorkspace: server.defaultWorkspace ?? null,
        origin: 'cli-import',
      });
      if (server.token) tokensToStore.push({ profileId: id, token: server.token, apiUrl });
      result.imported.push({ name: server.name, profileId: id, hasToken: !!server.token });
    }
    if (state.active === null || !state.profiles.some((p) => p.id === state.active)) {
      const preferred =
        result.imported.find((i) => i.name === config.defaultServer) ?? result.imported[0];
      if (preferred) {
        state.active = preferred.profileId;
        result.activated = preferred.profileId;
      }
    }
  });

  for (const { profileId, token, apiUrl } of tokensToStore) {
    // A token kept from an earlier sign-in to this origin wins over the CLI's copy; one
    // kept for another origin under the same id is not this server's, and is replaced.
    if ((await options.tokens.originOf(profileId)) === tokenOriginOf(apiUrl)) continue;
    try {
      await options.tokens.set(profileId, token, apiUrl);
    } catch {
      const entry = result.imported.find((i) => i.profileId === profileId);
      if (entry) entry.hasToken = false;
      result.skipped.push({
        name: entry?.name ?? profileId,
        reason: 'its token is not a valid token and was not imported',
      });
    }
  }
  return result;
}
