import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** Artifact ids opened lately (UI state: the data itself comes from the server). */
interface RecentArtifacts {
  ids: number[];
  remember: (id: number) => void;
}

export const useRecentArtifacts = create<RecentArtifacts>()(
  persist(
    (set) => ({
      ids: [],
      remember: (id) => {
        set((s) => ({ ids: [id, ...s.ids.filter((x) => x !== id)].slice(0, 12) }));
      },
    }),
    { name: 'debusine-desktop.recent-artifacts' },
  ),
);
