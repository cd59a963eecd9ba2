/**
 * Servers and session: profiles, sign-in with a token, sign-out, presets, the CLI
 * import, server checks and enrollment. Tokens go into the TokenStore and never come back.
 *
 * A token is stored for the origin of its profile's address at the time, and is never sent
 * anywhere else: a profile whose address moves to another origin loses its token (the user
 * signs in again), and an enrollment still waiting for it is cancelled.
 */
import { randomUUID } from 'node:crypto';
import { normaliseApiUrl } from '../api/http';
import { enrollProfile } from '../enroll/enroll-profile';
import { importCliConfig } from '../settings/cli-import';
import { signIn, signOut } from '../settings/sign-in';
import { tokenOriginOf } from '../settings/token-store';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import type { EnrollStarted, ServerCheck, SessionInfo } from '../../shared/contract';
import { DebusineError, serializeError } from '../../shared/errors';
import { DEFAULT_SCOPE } from './env-seed';
import { cliConfigPathFrom, findPresets, publicPreset, type PresetSources } from './presets';
import type { ProfileSession } from './profile-session';
import type { UserDirectory } from '../identity/user-directory';

type Handlers = Pick<
  ServiceHandlers,
  | 'session.whoami'
  | 'session.signInWithToken'
  | 'session.signOut'
  | 'servers.list'
  | 'servers.active'
  | 'servers.add'
  | 'servers.update'
  | 'servers.remove'
  | 'servers.setActive'
  | 'servers.check'
  | 'servers.importCliConfig'
  | 'servers.presets'
  | 'servers.addPreset'
  | 'servers.tokenStore'
  | 'enroll.start'
  | 'enroll.cancel'
>;

export interface ServerDeps {
  session: ProfileSession;
  /** Learns and keeps the signed-in user's id (SessionInfo.userId). */
  users?: UserDirectory;
  emit: EmitEvent;
  env: NodeJS.ProcessEnv;
  presetSources?: PresetSources;
  /** Opens the enrollment page in the system browser; absent in the web host. */
  openExternal?: ((url: string) => Promise<void>) | undefined;
}

export async function whoami(session: ProfileSession, users?: UserDirectory): Promise<SessionInfo> {
  const server = session.active();
  if (server === null) return { server: null, user: null, userId: null, authenticated: false };
  const client = session.client();
  const me = await client.whoami();
  if (!me.auth) return { server, user: null, userId: null, authenticated: false };
  const userId = users ? await users.selfId(server.id, client.apiUrl, me.user) : null;
  return { server, user: me.user, userId, authenticated: true };
}

function reachableAfter(error: unknown): boolean {
  return !(error instanceof DebusineError && ['network', 'timeout'].includes(error.code));
}

export function serverHandlers(deps: ServerDeps): Handlers {
  const { session, emit } = deps;
  const enrollments = new Map<string, { serverId: string; controller: AbortController }>();

  /** Cancels the enrollments waiting for a token for this profile. */
  const cancelEnrollments = (serverId: string): void => {
    for (const e of enrollments.values()) if (e.serverId === serverId) e.controller.abort();
  };

  const changed = async (ids: string[]): Promise<void> => {
    await session.refresh();
    emit('servers.changed', { serverIds: ids });
  };
  const sessionChanged = async (): Promise<void> => {
    await session.refresh();
    const info = await whoami(session, deps.users).catch((): SessionInfo => ({
      server: session.active(),
      user: null,
      userId: null,
      authenticated: false,
    }));
    emit('session.changed', info);
  };

  const check = async (id: string): Promise<ServerCheck> => {
    const client = await session.clientFor(id);
    try {
      const me = await client.whoami();
      return {
        serverId: id,
        reachable: true,
        authenticated: me.auth,
        user: me.auth ? me.user : null,
        error: me.auth
          ? null
          : serializeError(new DebusineError('auth', 'The server did not accept the token')),
      };
    } catch (error) {
      return {
        serverId: id,
        reachable: reachableAfter(error),
        authenticated: false,
        user: null,
        error: serializeError(error),
      };
    } finally {
      await client.close();
    }
  };

  return {
    'session.whoami': () => whoami(session, deps.users),
    'session.signInWithToken': async ({ serverId, token }) => {
      await signIn({ profile: session.profile(serverId), token, tokens: session.tokens });
      await session.profiles.setActive(serverId);
      await sessionChanged();
      emit('servers.changed', { serverIds: [serverId] });
      return whoami(session, deps.users);
    },
    'session.signOut': async ({ serverId }) => {
      session.profile(serverId);
      await signOut(serverId, session.tokens);
      await sessionChanged();
      emit('servers.changed', { serverIds: [serverId] });
      return undefined;
    },
    'servers.list': async () => {
      await session.refresh();
      return session.list();
    },
    'servers.active': () => Promise.resolve(session.active()),
    'servers.add': async ({ name, apiUrl, scope, defaultWorkspace }) => {
      const before = session.active()?.id ?? null;
      const created = await session.profiles.add({
        name,
        apiUrl: normaliseApiUrl(apiUrl),
        scope: scope ?? DEFAULT_SCOPE,
        defaultWorkspace,
        origin: 'manual',
      });
      // A new profile starts signed out, even if a token was left under its id.
      await session.tokens.delete(created.id);
      await changed([created.id]);
      if (before !== (session.active()?.id ?? null)) await sessionChanged();
      return session.profileView(session.profile(created.id));
    },
    'servers.update': async ({ id, scope, apiUrl, ...rest }) => {
      const wasActive = session.active()?.id === id;
      const newApiUrl = apiUrl === undefined ? undefined : normaliseApiUrl(apiUrl);
      const before = await session.profiles.get(id);
      if (!before) throw new DebusineError('not-found', `No server profile ${id}`);
      const moves =
        newApiUrl !== undefined && tokenOriginOf(newApiUrl) !== tokenOriginOf(before.apiUrl);
      if (moves) {
        // Before the address changes, so that nothing can send the token to the new one.
        cancelEnrollments(id);
        await session.tokens.delete(id);
      }
      await session.profiles.update(id, {
        ...rest,
        ...(newApiUrl !== undefined ? { apiUrl: newApiUrl } : {}),
        ...(scope !== undefined ? { scope: scope ?? DEFAULT_SCOPE } : {}),
      });
      await changed([id]);
      if (wasActive) await sessionChanged();
      return session.profileView(session.profile(id));
    },
    'servers.remove': async ({ id }) => {
      session.profile(id);
      const wasActive = session.active()?.id === id;
      cancelEnrollments(id);
      // The token first: a profile added later under the same id must not find it.
      await session.tokens.delete(id);
      await session.profiles.remove(id);
      await changed([id]);
      if (wasActive) await sessionChanged();
      return undefined;
    },
    'servers.setActive': async ({ id }) => {
      await session.profiles.setActive(id);
      await changed([id]);
      await sessionChanged();
      const active = session.active();
      if (!active) throw new DebusineError('not-found', `No server profile ${id}`);
      return active;
    },
    'servers.check': async (args) => {
      const id = args?.id ?? session.active()?.id;
      if (id === undefined)
        throw new DebusineError('auth', 'No Debusine server is configured yet.');
      return check(id);
    },
    'servers.importCliConfig': async ({ dryRun }) => {
      const path = cliConfigPathFrom(deps.env);
      if (dryRun) {
        const presets = (await findPresets({ ...deps.presetSources, env: deps.env })).filter(
          (p) => p.source === 'cli-config',
        );
        return {
          source: path,
          servers: presets.map((p) => ({
            name: p.name,
            apiUrl: p.apiUrl,
            scope: p.scope,
            hasToken: p.hasToken,
          })),
          imported: 0,
        };
      }
      const before = session.active()?.id ?? null;
      const result = await importCliConfig({
        profiles: session.profiles,
        tokens: session.tokens,
        path,
      });
      await changed(result.imported.map((i) => i.profileId));
      if (before !== (session.active()?.id ?? null)) await sessionChanged();
      return {
        source: path,
        servers: result.imported.map((i) => {
          const p = session.profile(i.profileId);
          return { name: p.name, apiUrl: p.apiUrl, scope: p.scope, hasToken: i.hasToken };
        }),
        imported: result.imported.length,
      };
    },
    'servers.presets': async () => {
      await session.refresh();
      const presets = await findPresets({ ...deps.presetSources, env: deps.env });
      const list = session.list();
      return presets.map((p) =>
        publicPreset(p, list.find((s) => s.apiUrl === p.apiUrl && s.scope === p.scope)?.id ?? null),
      );
    },
    'servers.addPreset': async ({ presetId, makeActive }) => {
      await session.refresh();
      const presets = await findPresets({ ...deps.presetSources, env: deps.env });
      const preset = presets.find((p) => p.presetId === presetId);
      if (!preset) throw new DebusineError('not-found', `No server preset ${presetId}`);
      const scope = preset.scope ?? DEFAULT_SCOPE;
      let id = session.list().find((s) => s.apiUrl === preset.apiUrl && s.scope === scope)?.id;
      if (id === undefined) {
        const names = new Set(session.list().map((s) => s.name));
        let name = preset.name;
        for (let n = 2; names.has(name); n++) name = `${preset.name} (${String(n)})`;
        id = (
          await session.profiles.add({
            name,
            apiUrl: preset.apiUrl,
            scope,
            defaultWorkspace: preset.defaultWorkspace,
            origin: preset.source === 'cli-config' ? 'cli-import' : 'manual',
          })
        ).id;
      }
      // A token the user stored already wins over the preset's copy, if it is for this
      // server's origin (one stored for another is not this server's).
      const stored = await session.tokens.originOf(id);
      if (preset.token !== undefined && stored !== tokenOriginOf(preset.apiUrl)) {
        await session.tokens.set(id, preset.token, preset.apiUrl);
      }
      if (makeActive) await session.profiles.setActive(id);
      await changed([id]);
      await sessionChanged();
      return session.profileView(session.profile(id));
    },
    'servers.tokenStore': () => Promise.resolve(session.tokens.info()),
    'enroll.start': async ({ serverId }) => {
      const profile = session.profile(serverId);
      const enrollId = randomUUID();
      const controller = new AbortController();
      enrollments.set(enrollId, { serverId, controller });
      const open = deps.openExternal;
      return new Promise<EnrollStarted>((resolve, reject) => {
        let started = false;
        enrollProfile({
          profile,
          tokens: session.tokens,
          signal: controller.signal,
          // The web host has no browser of its own to open: the renderer shows the link.
          openExternal: (url) => (open ? open(url) : undefined),
          onStarted: (s) => {
            started = true;
            resolve({
              enrollId,
              challenge: s.challenge,
              confirmUrl: s.confirmUrl,
              browserOpened: open !== undefined,
            });
          },
        })
          .then(async (outcome) => {
            if (outcome.outcome === 'confirm') {
              await session.profiles.setActive(serverId);
              await sessionChanged();
              emit('servers.changed', { serverIds: [serverId] });
            }
            emit('enroll.finished', { enrollId, outcome: outcome.outcome, error: null });
          })
          .catch((error: unknown) => {
            if (!started) reject(error instanceof Error ? error : new Error(String(error)));
            else
              emit('enroll.finished', { enrollId, outcome: 'error', error: serializeError(error) });
          })
          .finally(() => enrollments.delete(enrollId));
      });
    },
    'enroll.cancel': ({ enrollId }) => {
      enrollments.get(enrollId)?.controller.abort();
      return Promise.resolve(undefined);
    },
  };
}
