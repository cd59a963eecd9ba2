/**
 * The composition root: implements every request of the contract on top of main's modules.
 * An entry whose module is still being built answers DebusineError('unsupported') naming
 * the issue that brings it, so that nothing pretends to work.
 */
import type { ServiceHandlers } from './bridge/dispatch';
import type { EmitEvent } from './bridge/event-outbox';
import type { SessionProvider } from './service/session';
import type { StagedFiles } from './service/staged-files';
import type { RequestChannel, ServerCheck, SessionInfo, StagedFile } from '../shared/contract';
import type { WorkRequestResponse } from '../shared/models';
import { DebusineError, serializeError } from '../shared/errors';
import { APP_NAME, APP_VERSION } from './version';

/** What only the host process can do (Electron dialogs and shell); the web host has less. */
export interface HostCapabilities {
  transport: 'electron' | 'web';
  platform: string;
  openExternal?: (url: string) => Promise<void>;
  /** Shows an open dialog; absolute paths of the chosen files, empty when cancelled. */
  pickFiles?: (options: { multiple: boolean; title?: string | undefined }) => Promise<string[]>;
  /** Shows a save (or folder) dialog; the chosen path, or null when cancelled. */
  chooseDestination?: (options: {
    kind: 'file' | 'directory';
    suggestedName?: string | undefined;
  }) => Promise<string | null>;
}

export interface ServiceDeps {
  session: SessionProvider;
  files: StagedFiles;
  host: HostCapabilities;
  emit: EmitEvent;
}

/** Which issue brings each entry that is not implemented yet. */
export const PENDING_ENTRIES = {
  'session.signInWithToken': 6,
  'session.signOut': 6,
  'servers.list': 6,
  'servers.add': 6,
  'servers.update': 6,
  'servers.remove': 6,
  'servers.setActive': 6,
  'servers.importCliConfig': 6,
  'enroll.start': 6,
  'enroll.cancel': 6,
  'connection.get': 6,
  'watch.list': 6,
  'watch.add': 6,
  'watch.remove': 6,
  'notifications.getSettings': 6,
  'notifications.setSettings': 6,
  'workflows.create': 4,
  'workflowTemplates.list': 4,
  'workflowTemplates.get': 4,
  'workflowTemplates.create': 4,
  'workflowTemplates.update': 4,
  'workflowTemplates.delete': 4,
  'artifacts.get': 4,
  'relations.list': 4,
  'relations.create': 4,
  'assets.list': 4,
  'assets.create': 4,
  'assets.checkPermission': 4,
  'collections.list': 4,
  'collections.get': 4,
  'collections.create': 4,
  'collections.update': 4,
  'collections.delete': 4,
  'collections.items': 4,
  'taskConfig.fetch': 4,
  'taskConfig.push': 4,
  'lookups.single': 4,
  'lookups.multiple': 4,
  'workspaces.getInheritance': 4,
  'workspaces.setInheritance': 4,
  'links.webui': 4,
  'localArtifacts.detect': 5,
  'uploads.start': 5,
  'uploads.list': 5,
  'uploads.pause': 5,
  'uploads.resume': 5,
  'uploads.cancel': 5,
  'downloads.file': 5,
  'downloads.all': 5,
} as const satisfies Partial<Record<RequestChannel, number>>;

type PendingChannel = keyof typeof PENDING_ENTRIES;
type ImplementedChannel = Exclude<RequestChannel, PendingChannel>;

function pending(channel: PendingChannel): () => Promise<never> {
  return () =>
    Promise.reject(
      new DebusineError('unsupported', `${channel} is not available yet`, {
        operation: channel,
        issue: PENDING_ENTRIES[channel],
      }),
    );
}

function notOnThisHost(channel: RequestChannel, hint: string): DebusineError {
  return new DebusineError('unsupported', `${channel} is not available here: ${hint}`, {
    operation: channel,
  });
}

export function createService(deps: ServiceDeps): ServiceHandlers {
  const { session, files, host } = deps;

  const whoami = async (): Promise<SessionInfo> => {
    const server = session.active();
    if (server === null) return { server: null, user: null, authenticated: false };
    const me = await session.client().whoami();
    return { server, user: me.user, authenticated: me.auth };
  };

  const check = async (id: string | undefined): Promise<ServerCheck> => {
    const server = session.active();
    if (server === null || (id !== undefined && id !== server.id)) {
      // Other profiles arrive with the server settings (issue 6).
      throw new DebusineError(
        'unsupported',
        'servers.check is not available yet for other servers',
        {
          operation: 'servers.check',
          issue: 6,
        },
      );
    }
    try {
      const me = await session.client().whoami();
      return {
        serverId: server.id,
        reachable: true,
        authenticated: me.auth,
        user: me.user,
        error: null,
      };
    } catch (error) {
      const reachable = !(
        error instanceof DebusineError && ['network', 'timeout'].includes(error.code)
      );
      return {
        serverId: server.id,
        reachable,
        authenticated: false,
        user: null,
        error: serializeError(error),
      };
    }
  };

  const implemented: { [C in ImplementedChannel]: ServiceHandlers[C] } = {
    'app.info': () =>
      Promise.resolve({
        name: APP_NAME,
        version: APP_VERSION,
        transport: host.transport,
        platform: host.platform,
      }),
    'app.openExternal': async ({ url }) => {
      if (!host.openExternal)
        throw notOnThisHost('app.openExternal', 'open the link in the browser');
      await host.openExternal(url);
      return undefined;
    },
    'session.whoami': whoami,
    'servers.active': () => Promise.resolve(session.active()),
    'servers.check': (args) => check(args?.id),
    'workRequests.list': async (args) => {
      const { limit = 50, ...filters } = args ?? {};
      const out: WorkRequestResponse[] = [];
      for await (const item of session.client().workRequestIter(filters)) {
        out.push(item);
        if (out.length >= limit) break;
      }
      return out;
    },
    // async, so that a missing session becomes a rejection rather than a synchronous throw.
    'workRequests.get': async ({ id }) => await session.client().workRequestGet(id),
    'workRequests.create': async (request) => await session.client().workRequestCreate(request),
    'workRequests.retry': async ({ id }) => await session.client().workRequestRetry(id),
    'workRequests.abort': async ({ id }) => await session.client().workRequestAbort(id),
    'workRequests.setPriority': async ({ id, priorityAdjustment }) =>
      await session.client().workRequestUpdate(id, priorityAdjustment),
    'workRequests.unblock': async ({ id, ...request }) =>
      await session.client().workRequestUnblock(id, request),
    'workRequests.confirm': async ({ id, ...request }) =>
      await session.client().workRequestConfirm(id, request),
    'workRequests.externalDebsignGet': async ({ id }) =>
      await session.client().workRequestExternalDebsignGet(id),
    'workRequests.externalDebsignComplete': async ({ id, signedArtifactId }) =>
      await session
        .client()
        .workRequestExternalDebsignComplete(id, { signed_artifact: signedArtifactId }),
    'files.pick': async ({ multiple, title }) => {
      if (!host.pickFiles) throw notOnThisHost('files.pick', 'drop the files or use a file input');
      const paths = await host.pickFiles({ multiple, title });
      const staged: StagedFile[] = [];
      for (const path of paths) staged.push(await files.add(path));
      return staged;
    },
    'files.release': async ({ ids }) => {
      await files.release(ids);
      return undefined;
    },
    'downloads.chooseDestination': async ({ kind, suggestedName }) => {
      if (!host.chooseDestination) {
        throw notOnThisHost('downloads.chooseDestination', 'the browser saves downloads itself');
      }
      const path = await host.chooseDestination({ kind, suggestedName });
      return path === null ? null : files.addDestination(path, kind);
    },
  };

  const later = Object.fromEntries(
    (Object.keys(PENDING_ENTRIES) as PendingChannel[]).map((channel) => [
      channel,
      pending(channel),
    ]),
  ) as Record<PendingChannel, () => Promise<never>>;

  return { ...implemented, ...later };
}
