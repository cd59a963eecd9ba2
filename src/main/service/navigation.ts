/**
 * Where the app is asked to go, and on which server. Work request and artifact ids are
 * only unique on one server: #42 on one server is another work request, or none, on the
 * next. A deep link names its server by its web address; a notification belongs to the
 * server profile that showed it, which may no longer be the active one when it is
 * clicked. So every navigation passes here: the server it names is made active first,
 * and a link to a server the app does not know opens nothing.
 */
import type { EmitEvent } from '../bridge/event-outbox';
import type { NavigateTarget, ServerSwitch } from '../../shared/contract';
import { serverHost } from '../../shared/server-names';
import type { ProfileSession } from './profile-session';

/** The server a place belongs to: the profile that announced it, or a link's web origin. */
export type ServerRef = { profileId: string } | { origin: string };

export interface Destination {
  target: NavigateTarget;
  /** null: the active server (the tray's own menu, the list of the active server). */
  server: ServerRef | null;
}

/**
 * Shown, and on which server when it was not the active one (the window says so: a link
 * must not change servers without a word); or refused, and why.
 */
export type NavigationOutcome =
  { shown: NavigateTarget; switchedTo?: ServerSwitch } | { refused: string };

export interface Navigation {
  go(destination: Destination): Promise<NavigationOutcome>;
}

/** `https://host:port` of a profile's API URL, the origin its web pages share. */
export function originOf(apiUrl: string): string {
  return new URL(apiUrl).origin;
}

function describe(target: NavigateTarget): string {
  if (target.kind === 'work-request') return `work request #${String(target.id)}`;
  if (target.kind === 'artifact') return `artifact #${String(target.id)}`;
  if (target.kind === 'log') return `a file of artifact #${String(target.artifactId)}`;
  return 'the work requests';
}

export function createNavigation(deps: {
  session: ProfileSession;
  /** Makes a profile active, as the app's own server switch does (with its events). */
  activate: (profileId: string) => Promise<unknown>;
  emit: EmitEvent;
}): Navigation {
  const { session } = deps;

  /** The profile to show the destination on; a string says why there is none. */
  const profileFor = (server: ServerRef): string | { refused: string } => {
    const active = session.activeProfile();
    if ('profileId' in server) {
      const known = session.list().some((p) => p.id === server.profileId);
      return known
        ? server.profileId
        : { refused: 'The server it was shown for has been removed from the app.' };
    }
    if (active && originOf(active.apiUrl) === server.origin) return active.id;
    const match = session.list().find((p) => originOf(p.apiUrl) === server.origin);
    return match
      ? match.id
      : {
          refused:
            `The link is for ${server.origin}, which is not one of the app's servers. ` +
            'Add it under Settings → Servers, then open the link again.',
        };
  };

  return {
    async go({ target, server }) {
      let switchedTo: ServerSwitch | undefined;
      if (server !== null) {
        const profileId = profileFor(server);
        if (typeof profileId !== 'string') {
          return { refused: `Cannot open ${describe(target)}. ${profileId.refused}` };
        }
        if (session.activeProfile()?.id !== profileId) {
          await deps.activate(profileId);
          const now = session.list().find((p) => p.id === profileId);
          if (now) switchedTo = { profileId, name: now.name, host: serverHost(now.apiUrl) };
        }
      }
      const switched = switchedTo ? { switchedTo } : {};
      deps.emit('app.navigate', {
        ...target,
        server: session.activeProfile()?.id ?? null,
        ...switched,
      });
      return { shown: target, ...switched };
    },
  };
}
