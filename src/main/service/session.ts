/**
 * The active server and its client, behind a small interface: ProfileSession
 * (profile-session.ts) provides it from the server profiles and the token store, and
 * StaticSessionProvider from one fixed server (tests). The token stays inside the
 * DebusineClient; what the renderer learns is a ServerSummary.
 */
import { DebusineClient } from '../api/client';
import type { ServerSummary } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';

import type { SessionProvider } from '../api/session-provider';

export type { SessionProvider };

export interface EnvServer {
  apiUrl: string;
  token?: string | undefined;
  scope?: string | undefined;
  defaultWorkspace?: string | undefined;
}

/** Reads DEBUSINE_DESKTOP_API_URL, _TOKEN, _SCOPE and _WORKSPACE; undefined without a URL. */
export function serverFromEnv(env: NodeJS.ProcessEnv = process.env): EnvServer | undefined {
  const apiUrl = env.DEBUSINE_DESKTOP_API_URL;
  if (!apiUrl) return undefined;
  return {
    apiUrl,
    // An empty variable means unset, as in a shell.
    token: emptyToUndefined(env.DEBUSINE_DESKTOP_TOKEN),
    scope: emptyToUndefined(env.DEBUSINE_DESKTOP_SCOPE),
    defaultWorkspace: emptyToUndefined(env.DEBUSINE_DESKTOP_WORKSPACE),
  };
}

/** One fixed server (from the environment, or a test); `undefined` means signed out. */
export class StaticSessionProvider implements SessionProvider {
  private readonly debusine: DebusineClient | undefined;
  private readonly summary: ServerSummary | null;

  constructor(server: EnvServer | undefined, makeClient = (s: EnvServer) => new DebusineClient(s)) {
    if (server === undefined) {
      this.debusine = undefined;
      this.summary = null;
      return;
    }
    this.debusine = makeClient(server);
    this.summary = {
      id: 'env',
      name: hostOf(server.apiUrl),
      apiUrl: this.debusine.apiUrl,
      scope: server.scope ?? null,
      defaultWorkspace: server.defaultWorkspace ?? null,
      hasToken: Boolean(server.token),
    };
  }

  active(): ServerSummary | null {
    return this.summary;
  }

  client(): DebusineClient {
    if (this.debusine === undefined) {
      throw new DebusineError('auth', 'No Debusine server is configured yet.');
    }
    return this.debusine;
  }

  async close(): Promise<void> {
    await this.debusine?.close();
  }
}

function hostOf(apiUrl: string): string {
  try {
    return new URL(apiUrl).host;
  } catch {
    return apiUrl;
  }
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/**
 * The active server, when it is the one a page names. Ids mean other things on another
 * server: a page of one server's log or artifact that outlived a switch must not reach the
 * other's. `refusal` says, with the active server's name, why not, under `rule`.
 */
export function activeServerNamed(
  session: SessionProvider,
  profileId: string,
  refusal: { rule: string; message: (active: string) => string },
): ServerSummary {
  const server = session.active();
  if (!server) throw new DebusineError('auth', 'No Debusine server is configured yet.');
  if (server.id !== profileId) {
    throw new DebusineError('conflict', refusal.message(server.name), { rule: refusal.rule });
  }
  return server;
}
