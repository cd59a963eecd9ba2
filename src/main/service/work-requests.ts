/**
 * Work requests and workflows: DebusineClient calls, the paged listing with opaque cursors
 * (the server's next URL stays in main), the "needs me" list, and automatic watching of
 * everything the app starts or retries (work-request-starts.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { EmitEvent } from '../bridge/event-outbox';
import type { WorkRequestResponse } from '../../shared/models';
import { DebusineError } from '../../shared/errors';
import { BoundedMap } from '../bounded';
import type { SessionProvider } from './session';
import type { UserDirectory } from '../identity/user-directory';
import type { WorkRequestStarts } from './work-request-starts';
import { waitKindOf } from '../notify/needs-input-notification';

type Handlers = Pick<
  ServiceHandlers,
  | 'workRequests.list'
  | 'workRequests.page'
  | 'workRequests.needsMe'
  | 'workRequests.get'
  | 'workRequests.create'
  | 'workRequests.retry'
  | 'workRequests.abort'
  | 'workRequests.setPriority'
  | 'workRequests.unblock'
  | 'workRequests.confirm'
  | 'workRequests.externalDebsignGet'
  | 'workRequests.externalDebsignComplete'
  | 'workflows.create'
  | 'users.names'
>;

export interface WorkRequestDeps {
  session: SessionProvider;
  emit: EmitEvent;
  /** What follows a work request the app starts or retries. */
  starts: WorkRequestStarts;
  /** Names the creators on each page. */
  users: UserDirectory;
}

const NEEDS_ME_SCAN = 500;
const MAX_CURSORS = 2000;

interface Cursor {
  serverId: string;
  url: string;
  /** Filters the client applies itself (servers that ignore the query). */
  filter: (wr: WorkRequestResponse) => boolean;
}

export function workRequestHandlers(deps: WorkRequestDeps): Handlers {
  const { session, emit } = deps;
  // An expired cursor only means "load the list again".
  const cursors = new BoundedMap<string, Cursor>(MAX_CURSORS);
  const client = () => session.client();
  const changed = (...ids: number[]): void => {
    emit('workRequests.changed', { ids: [...new Set(ids)] });
  };

  const page: Handlers['workRequests.page'] = async (args) => {
    const c = client();
    const serverId = session.active()?.id ?? '';
    let cursor: Cursor;
    if (args?.cursor) {
      const found = cursors.get(args.cursor);
      if (found?.serverId !== serverId) {
        throw new DebusineError(
          'validation',
          'This list position has expired: load the list again',
          {
            rule: 'cursor',
          },
        );
      }
      cursor = found;
    } else {
      const revision = await c.serverRevision();
      const filters = args ?? {};
      const ids = filters.ids ? new Set(filters.ids) : undefined;
      if (filters.rootOnly && !revision.features.workRequestFilters) {
        throw new DebusineError('unsupported', 'This server cannot list workflow roots only', {
          operation: 'workRequests.page',
        });
      }
      cursor = {
        serverId,
        url: c.workRequestPageUrl(filters),
        // Earlier servers ignore the filters; the page is filtered here (it may come out short).
        filter: revision.features.workRequestFilters
          ? () => true
          : (wr) =>
              (filters.status === undefined || wr.status === filters.status) &&
              (filters.taskType === undefined || wr.task_type === filters.taskType) &&
              (ids === undefined || ids.has(wr.id)),
      };
    }
    const result = await c.workRequestPage(cursor.url);
    let nextCursor: string | null = null;
    if (result.next) {
      // `next` is on the API's own origin, whatever host the server named in it.
      nextCursor = randomUUID();
      cursors.set(nextCursor, { ...cursor, url: result.next });
    }
    const items = result.results.filter(cursor.filter);
    const creators = await deps.users.names(
      serverId,
      c,
      items.map((wr) => wr.created_by),
    );
    return { items, nextCursor, creators };
  };

  const scan = async (filters: { status: string; taskType?: string }) => {
    const out: WorkRequestResponse[] = [];
    let seen = 0;
    for await (const wr of client().workRequestIter(filters)) {
      out.push(wr);
      if (++seen >= NEEDS_ME_SCAN) break;
    }
    return out;
  };

  return {
    'workRequests.list': async (args) => {
      const { limit = 50, ...filters } = args ?? {};
      const out: WorkRequestResponse[] = [];
      for await (const item of client().workRequestIter(filters)) {
        out.push(item);
        if (out.length >= limit) break;
      }
      return out;
    },
    'workRequests.page': page,
    'workRequests.needsMe': async () => {
      // Wait steps that say they need a person (workflow_data.needs_input), and the known
      // ones (servers that do not say): the same as notify when a watched workflow waits.
      const waiting = (await scan({ status: 'running', taskType: 'Wait' })).filter(
        (wr) => waitKindOf(wr) !== undefined,
      );
      // Manual unblocking: only servers that send unblock_strategy say which blocked steps
      // wait for a person (0.16 does not, but none of its workflows makes such steps: they
      // ask through Wait steps with needs_input instead).
      const blocked = (await scan({ status: 'blocked' })).filter(
        (wr) => (wr as Record<string, unknown>).unblock_strategy === 'manual',
      );
      return [...waiting, ...blocked].sort(
        (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id,
      );
    },
    'workRequests.get': async ({ id }) => await client().workRequestGet(id),
    'workRequests.create': async (request) =>
      deps.starts.started(await client().workRequestCreate(request)),
    'workRequests.retry': ({ id }) => deps.starts.retry(id),
    'workRequests.abort': async ({ id }) => {
      const wr = await client().workRequestAbort(id);
      changed(id);
      return wr;
    },
    'workRequests.setPriority': async ({ id, priorityAdjustment }) => {
      const wr = await client().workRequestUpdate(id, priorityAdjustment);
      changed(id);
      return wr;
    },
    'workRequests.unblock': async ({ id, ...request }) => {
      const wr = await client().workRequestUnblock(id, request);
      changed(id);
      return wr;
    },
    'workRequests.confirm': async ({ id, ...request }) => {
      const wr = await client().workRequestConfirm(id, request);
      changed(id);
      return wr;
    },
    'workRequests.externalDebsignGet': async ({ id }) =>
      await client().workRequestExternalDebsignGet(id),
    'workRequests.externalDebsignComplete': async ({ id, signedArtifactId }) => {
      const wr = await client().workRequestExternalDebsignComplete(id, {
        signed_artifact: signedArtifactId,
      });
      changed(id);
      return wr;
    },
    'workflows.create': async (request) =>
      deps.starts.started(await client().workflowCreate(request)),
    'users.names': async ({ ids }) =>
      await deps.users.names(session.active()?.id ?? '', client(), ids),
  };
}
