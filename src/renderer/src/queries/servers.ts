/**
 * The server profiles main keeps, and which one is active: app data (the active profile is
 * what scopes server data, so it cannot be scoped by it). Every change to the profiles or
 * the sign-in makes everything stale: what was read may belong to another server now.
 */
import type { RequestArgs, ServerProfile, ServerSummary } from '@shared/contract';
import { DebusineError } from '@shared/errors';
import { APP, EVERYTHING, NO_SERVER, defineMutation, defineQuery, type Scope } from './define';

const everything = () => [EVERYTHING];

export const serverQueries = {
  /**
   * Main announces every change of it (servers.changed, session.changed; see events.ts), so
   * it is read again on those only.
   */
  active: defineQuery([APP, 'servers', 'active'], (bridge) => bridge.servers.active(), {
    staleTime: Infinity,
  }),
  list: defineQuery([APP, 'servers', 'list'], (bridge) => bridge.servers.list()),
  presets: defineQuery([APP, 'servers', 'presets'], (bridge) => bridge.servers.presets()),
  tokenStore: defineQuery(
    [APP, 'servers', 'token-store'],
    (bridge) => bridge.servers.tokenStore(),
    {
      staleTime: Infinity,
    },
  ),
};

/** The scope of the data of this server (the active one, or none). */
export function scopeOf(server: ServerSummary | null): Scope {
  return server?.id ?? NO_SERVER;
}

export const serverMutations = {
  setActive: defineMutation({
    fn: (bridge, id: string) => bridge.servers.setActive({ id }),
    // The new scope at once: nothing asks the previous server's keys any more.
    writes: (queryClient, _scope, active: ServerSummary) => {
      queryClient.setQueryData(serverQueries.active.key, active);
    },
    invalidates: everything,
  }),
  /** Adds a profile; `makeActive` makes it the active one (the first server). */
  add: defineMutation({
    fn: async (
      bridge,
      { makeActive, ...fields }: RequestArgs<'servers.add'> & { makeActive: boolean },
    ): Promise<ServerProfile> => {
      const profile = await bridge.servers.add(fields);
      if (makeActive && !profile.active) {
        await bridge.servers.setActive({ id: profile.id });
        return { ...profile, active: true };
      }
      return profile;
    },
    invalidates: everything,
  }),
  update: defineMutation({
    fn: (bridge, args: RequestArgs<'servers.update'>) => bridge.servers.update(args),
    invalidates: everything,
  }),
  remove: defineMutation({
    fn: (bridge, id: string) => bridge.servers.remove({ id }),
    invalidates: everything,
  }),
  addPreset: defineMutation({
    fn: (bridge, presetId: string) => bridge.servers.addPreset({ presetId, makeActive: true }),
    invalidates: everything,
  }),
  signOut: defineMutation({
    fn: (bridge, serverId: string) => bridge.session.signOut({ serverId }),
    invalidates: everything,
  }),
  /** Signs in with a pasted token; a token the server does not accept is an `auth` error. */
  signInWithToken: defineMutation({
    fn: async (bridge, args: { serverId: string; token: string }) => {
      const info = await bridge.session.signInWithToken(args);
      if (!info.authenticated) {
        throw new DebusineError('auth', 'The server did not accept this token.');
      }
      return info;
    },
    invalidates: everything,
  }),
  /** Starts an enrollment; its end comes as an event (see events.ts). */
  startEnrollment: defineMutation({
    fn: (bridge, serverId: string) => bridge.enroll.start({ serverId }),
  }),
};
