/**
 * DEBUSINE_DESKTOP_API_URL/_TOKEN/_SCOPE/_WORKSPACE (tests and CI): creates or updates a
 * profile for that server, stores the token, and makes it active. The token is not checked
 * here (the server may not be up yet); whoami says later whether it is accepted.
 */
import { normaliseApiUrl } from '../api/http';
import type { ProfileStore, ServerProfile } from '../settings/profiles';
import type { TokenStore } from '../settings/token-store';
import { DEFAULT_SCOPE } from '../../shared/web-paths';
import { serverFromEnv } from './session';

/** Debusine's default scope, for a URL given without one. */
export { DEFAULT_SCOPE };

export async function seedFromEnv(
  profiles: ProfileStore,
  tokens: TokenStore,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerProfile | undefined> {
  const server = serverFromEnv(env);
  if (!server) return undefined;
  const apiUrl = normaliseApiUrl(server.apiUrl);
  const scope = server.scope ?? DEFAULT_SCOPE;
  const existing = (await profiles.list()).find((p) => p.apiUrl === apiUrl && p.scope === scope);
  let profile: ServerProfile;
  if (existing) {
    profile =
      server.defaultWorkspace !== undefined && server.defaultWorkspace !== existing.defaultWorkspace
        ? await profiles.update(existing.id, { defaultWorkspace: server.defaultWorkspace })
        : existing;
  } else {
    const taken = new Set((await profiles.list()).map((p) => p.name));
    let name = new URL(apiUrl).host;
    for (let n = 2; taken.has(name); n++) name = `${new URL(apiUrl).host} (${String(n)})`;
    profile = await profiles.add({
      name,
      apiUrl,
      scope,
      defaultWorkspace: server.defaultWorkspace ?? null,
      origin: 'manual',
    });
  }
  if (server.token) await tokens.set(profile.id, server.token, profile.apiUrl);
  await profiles.setActive(profile.id);
  return profile;
}
