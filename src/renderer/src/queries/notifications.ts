/** What notifies, and the program run on completion: app settings main keeps. */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { NotificationSettings, RequestArgs } from '@shared/contract';
import { APP, defineMutation, defineQuery, type Scope } from './define';
import { useMutationOf } from './hooks';

export const notificationQueries = {
  settings: defineQuery([APP, 'notifications', 'settings'], (bridge) =>
    bridge.notifications.getSettings(),
  ),
};

function writeSettings(
  queryClient: QueryClient,
  _scope: Scope,
  settings: NotificationSettings,
): void {
  queryClient.setQueryData(notificationQueries.settings.key, settings);
}

export const notificationMutations = {
  save: defineMutation({
    fn: (bridge, patch: NonNullable<RequestArgs<'notifications.setSettings'>>) =>
      bridge.notifications.setSettings(patch),
  }),
  /**
   * Chooses the program run on completion, or stops running one. Main asks for it in its
   * own file dialog: nothing here can name one.
   */
  command: defineMutation({
    fn: (bridge, what: 'choose' | 'remove') =>
      what === 'choose'
        ? bridge.notifications.chooseCommand()
        : bridge.notifications.removeCommand(),
    writes: writeSettings,
  }),
};

/**
 * Saves a change of the settings, shown at once (optimistic); a refusal puts back what was
 * there. Saves may overlap (two clicks in a row): only the last one's answer is shown,
 * since an earlier answer does not know of the later change yet.
 */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  const latest = useRef(0);
  const key = notificationQueries.settings.key;
  return useMutationOf(notificationMutations.save, {
    onMutate: (patch) => {
      const previous = queryClient.getQueryData<NotificationSettings>(key);
      if (previous) queryClient.setQueryData(key, { ...previous, ...patch });
      latest.current += 1;
      return { previous, seq: latest.current };
    },
    onError: (_error, _patch, context) => {
      if (context?.previous && context.seq === latest.current) {
        queryClient.setQueryData(key, context.previous);
      }
    },
    onSuccess: (settings, _patch, _invalidated, context) => {
      if (context.seq === latest.current) queryClient.setQueryData(key, settings);
    },
  });
}
