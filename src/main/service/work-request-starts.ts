/**
 * What follows every work request the app starts or retries, whichever way the user asked
 * (a request from the renderer, or the Retry button of a desktop notification): the user's
 * own id is learned from it, it is watched, so that its completion notifies in every mode,
 * and the renderer hears that the lists changed.
 */
import type { EmitEvent } from '../bridge/event-outbox';
import type { UserDirectory } from '../identity/user-directory';
import type { WorkRequestResponse } from '../../shared/models';
import type { SessionProvider } from './session';

export interface WorkRequestStartDeps {
  session: SessionProvider;
  emit: EmitEvent;
  /** Learns the user's own id from what they start. */
  users: Pick<UserDirectory, 'learnSelf'>;
  /** Watches what the app started; never fails (WatchService.started). */
  watch: (workRequest: WorkRequestResponse) => Promise<void>;
}

export interface WorkRequestStarts {
  /** A work request or workflow the app just created. */
  started(workRequest: WorkRequestResponse): Promise<WorkRequestResponse>;
  /**
   * Retries a work request: the new one (ordinary tasks are superseded by a new work
   * request; a workflow retries in place and comes back as itself), watched.
   */
  retry(id: number): Promise<WorkRequestResponse>;
}

export function workRequestStarts(deps: WorkRequestStartDeps): WorkRequestStarts {
  const { session, emit } = deps;
  const changed = (id: number): void => {
    emit('workRequests.changed', { ids: [id] });
  };
  const started = async (workRequest: WorkRequestResponse): Promise<WorkRequestResponse> => {
    const server = session.active();
    if (server && typeof workRequest.created_by === 'number') {
      await deps.users
        .learnSelf(server.id, session.client().apiUrl, workRequest.created_by)
        .catch(() => undefined);
    }
    await deps.watch(workRequest);
    changed(workRequest.id);
    return workRequest;
  };
  return {
    started,
    async retry(id) {
      const workRequest = await session.client().workRequestRetry(id);
      changed(id);
      return started(workRequest);
    },
  };
}
