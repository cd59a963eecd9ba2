/**
 * Where the app runs in a browser, its desktop notifications are the page's to show
 * (kit/page-notifications.ts); Electron's main shows its own. And, in every host, the
 * window's title counts the failures notified that the user has not looked at yet, and says
 * what of the user's no worker can start: a browser shows it on the tab.
 */
import { useEffect } from 'react';
import { useBridge } from '@renderer/bridge';
import { showPageNotification } from '@renderer/kit/page-notifications';
import { usePageVisible } from '@renderer/kit/page-visible';
import { useDetail } from '@renderer/kit/navigation';
import { useMainEvent } from '@renderer/queries/events';
import { useUiStore } from '@renderer/state/ui-store';
import { useUnreadFailures } from '@renderer/state/unread-failures';
import { notifiesFailure } from '@shared/results/end';
import { cannotStartText } from '@shared/results/queue';
import { useServerQuery } from '@renderer/queries/hooks';
import { queueQueries } from '@renderer/queries/queue';

/** The title index.html gives the window, which the count goes in front of. */
const TITLE = document.title;

/**
 * Shows main's notifications through the browser; a click opens what main's click opens.
 * Only the web host's main sends `notification.desktop` (Electron's shows its own), so no
 * host is asked about here.
 */
export function usePageNotifications(): void {
  const bridge = useBridge();
  useMainEvent('notification.desktop', (note) => {
    showPageNotification(note, () => {
      // Main opens it on the server that notified it, switching to that server first.
      bridge.notifications.activate({ key: note.key }).catch((error: unknown) => {
        console.warn(error instanceof Error ? error.message : String(error));
        useUiStore.getState().setArea('work-requests');
      });
    });
  });
}

/**
 * Counts the failures notified, and takes off those the user sees: the work request's
 * page or log open while the window is shown (the page a notification's click opens).
 */
export function useUnreadFailuresTitle(): void {
  const add = useUnreadFailures((s) => s.add);
  const markRead = useUnreadFailures((s) => s.markRead);
  const count = useUnreadFailures((s) => s.unread.length);
  // The page on screen is the active server's (useDetail), and names it.
  const detail = useDetail();
  const serverId = detail?.server ?? null;
  const visible = usePageVisible();
  const shownId =
    detail?.kind === 'work-request'
      ? detail.id
      : detail?.kind === 'log' || detail?.kind === 'live-log'
        ? detail.workRequestId
        : null;

  useMainEvent('notification.shown', (record) => {
    if (notifiesFailure(record.result)) add(record);
  });
  useEffect(() => {
    if (visible && shownId !== null && serverId !== null) markRead(serverId, shownId);
    // `count`: a failure of the work request on screen is read as soon as it comes.
  }, [visible, shownId, serverId, markRead, count]);
  // The user's work no worker can start is said in the title too: the window's title is
  // what shows of it in a taskbar or a tab when the app is not in front.
  const stuck = useServerQuery(queueQueries.stuck);
  const cannotStart = stuck.data ? cannotStartText(stuck.data.architectures) : null;
  useEffect(() => {
    const counted = count > 0 ? `(${String(count)}) ${TITLE}` : TITLE;
    document.title = cannotStart === null ? counted : `${counted} · ${cannotStart}`;
  }, [count, cannotStart]);
}
