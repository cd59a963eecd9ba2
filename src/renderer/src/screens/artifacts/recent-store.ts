import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/**
 * Artifact ids opened lately, each with the server it was opened on (UI state: the data
 * itself comes from the server). An id names another artifact on another server, so each
 * server lists only its own.
 */
interface RecentArtifacts {
  opened: { server: string; id: number }[];
  remember: (server: string, id: number) => void;
}

/** Kept for all servers together. */
const LIMIT = 48;

export const useRecentArtifacts = create<RecentArtifacts>()(
  persist(
    (set) => ({
      opened: [],
      remember: (server, id) => {
        set((s) => ({
          opened: [
            { server, id },
            ...s.opened.filter((o) => o.server !== server || o.id !== id),
          ].slice(0, LIMIT),
        }));
      },
    }),
    {
      // A new name: the list kept before named no server, so its ids cannot be trusted to
      // be the active server's.
      name: 'debusine-desktop.recent-artifacts-by-server',
    },
  ),
);

/** The artifacts lately opened on this server, newest first. */
export function recentOn(opened: RecentArtifacts['opened'], server: string): number[] {
  return opened
    .filter((o) => o.server === server)
    .map((o) => o.id)
    .slice(0, 12);
}
