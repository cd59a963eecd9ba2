import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBridge } from '@renderer/bridge';
import type { SessionInfo } from '@shared/contract';
import { useUiStore } from '@renderer/state/ui-store';
import { keys } from './keys';

/**
 * The one place that maps main's events to react-query: small "changed" events invalidate
 * the keys they concern, and the data comes back through normal requests. Mounted once, at
 * the top of the app.
 */
export function useBridgeEvents(): void {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  useEffect(() => {
    const invalidate = (queryKey: readonly unknown[]): void => {
      void queryClient.invalidateQueries({ queryKey });
    };
    // The infinite list updates its rows in place (screens/work-requests/queries.ts):
    // refetching it would re-read every loaded page, a thousand requests at 10,000 rows.
    const invalidateListsExceptPaged = (): void => {
      void queryClient.invalidateQueries({
        queryKey: keys.workRequests.lists(),
        predicate: (query) => !keys.workRequests.isPagedList(query.queryKey),
      });
    };
    const offs = [
      bridge.on('session.changed', () => {
        invalidate(keys.session.all());
        invalidate(keys.servers.all());
        invalidate(keys.workRequests.all());
      }),
      bridge.on('servers.changed', () => {
        invalidate(keys.servers.all());
        invalidate(keys.session.all());
      }),
      bridge.on('connection.state', (state) => {
        queryClient.setQueryData(keys.connection.state(), state);
      }),
      bridge.on('watch.changed', () => {
        invalidate(keys.watch.list());
      }),
      bridge.on('workRequest.completed', (event) => {
        invalidate(keys.workRequests.detail(event.workRequestId));
        invalidateListsExceptPaged();
        invalidate(keys.watch.list());
      }),
      bridge.on('workRequests.changed', (event) => {
        for (const id of event.ids) invalidate(keys.workRequests.detail(id));
        invalidateListsExceptPaged();
        // Main learns the user's id from the first work request started here ("mine").
        const me = queryClient.getQueryData<SessionInfo>(keys.session.whoami());
        if (me?.authenticated && me.userId === null) invalidate(keys.session.whoami());
      }),
      bridge.on('upload.finished', () => {
        invalidate(keys.uploads.list());
      }),
      bridge.on('app.navigate', (target) => {
        const ui = useUiStore.getState();
        if (target.kind === 'work-request') ui.openWorkRequest(target.id);
        else if (target.kind === 'artifact') ui.openArtifact(target.id);
        else ui.setArea('work-requests');
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [bridge, queryClient]);
}
