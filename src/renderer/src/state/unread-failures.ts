/**
 * The failures the app notified that the user has not looked at yet: their number goes in
 * the window's title ("(2) Debusine Desktop"), which a browser shows on its tab. UI state
 * only (what the user has seen), so zustand; the notifications themselves are main's.
 */
import { create } from 'zustand';
import type { NotificationRecord } from '@shared/contract';

/** More than anyone reads in a title; the oldest go first. */
const KEPT = 500;

interface UnreadFailure {
  /** The server profile that notified it; null when main named none. */
  serverId: string | null;
  /**
   * The work requests whose page shows it: the one notified, its workflow's root, and the
   * step that failed (the log line a failure's notification opens is that step's).
   */
  ids: number[];
  shownAt: string;
}

interface UnreadFailuresState {
  unread: UnreadFailure[];
  add: (record: NotificationRecord) => void;
  /** Read: what `id`'s page or log shows, or all of a server's (its list of notifications). */
  markRead: (serverId: string | null, which: number | 'all') => void;
}

function sameServer(a: string | null, b: string | null): boolean {
  return a === null || b === null || a === b;
}

export const useUnreadFailures = create<UnreadFailuresState>()((set) => ({
  unread: [],
  add: (record) => {
    const ids = [record.workRequestId, record.rootId, record.reason?.workRequestId ?? null];
    const entry: UnreadFailure = {
      serverId: record.serverId,
      ids: ids.filter((id): id is number => id !== null),
      shownAt: record.shownAt,
    };
    set((state) => {
      // The same work request failing again is still one thing to look at.
      const others = state.unread.filter(
        (u) => !(u.serverId === entry.serverId && u.ids[0] === entry.ids[0]),
      );
      return { unread: [...others, entry].slice(-KEPT) };
    });
  },
  markRead: (serverId, which) => {
    set((state) => {
      const unread = state.unread.filter(
        (u) => !(sameServer(u.serverId, serverId) && (which === 'all' || u.ids.includes(which))),
      );
      return unread.length === state.unread.length ? state : { unread };
    });
  },
}));
