/**
 * The workspace the maintainers' editors work in, per server (UI state, shared by the
 * Workspaces, Collections and Templates areas), and the workspaces used lately.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface WorkspaceState {
  /** Per server id: the picked workspace. */
  picked: Record<string, string>;
  /** Workspaces used recently (for the picker's suggestions), newest first. */
  recent: string[];
  pick: (serverId: string, workspace: string) => void;
  remember: (workspace: string) => void;
}

export const useWorkspaceStore = create<WorkspaceState>()(
  persist(
    (set) => ({
      picked: {},
      recent: [],
      pick: (serverId, workspace) => {
        set((s) => ({
          picked: { ...s.picked, [serverId]: workspace },
          recent: [workspace, ...s.recent.filter((w) => w !== workspace)].slice(0, 12),
        }));
      },
      remember: (workspace) => {
        set((s) => ({
          recent: [workspace, ...s.recent.filter((w) => w !== workspace)].slice(0, 12),
        }));
      },
    }),
    { name: 'debusine-desktop.editors-workspace' },
  ),
);
