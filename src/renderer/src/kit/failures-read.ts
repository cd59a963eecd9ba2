/** The list of notifications, on screen, is where every failure it lists has been seen. */
import { useEffect } from 'react';
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { useUnreadFailures } from '@renderer/state/unread-failures';
import { usePageVisible } from './page-visible';

/** Marks the active server's notified failures read while the caller is shown. */
export function useFailuresReadWhileShown(): void {
  const serverId = useAppQuery(serverQueries.active).data?.id ?? null;
  const markRead = useUnreadFailures((s) => s.markRead);
  const count = useUnreadFailures((s) => s.unread.length);
  const visible = usePageVisible();
  useEffect(() => {
    // `count`: one that comes while the list is on screen is listed, and so seen, at once.
    if (visible && serverId !== null) markRead(serverId, 'all');
  }, [visible, serverId, markRead, count]);
}
