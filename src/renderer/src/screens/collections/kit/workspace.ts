/**
 * The workspace the maintainers' editors work in (UI state, shared by the Workspaces,
 * Collections and Templates areas): the one the user picked, else the server's default.
 */
import { useQuery } from '@tanstack/react-query';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { useBridge } from '../../../bridge';
import { keys } from '../../../queries/keys';

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

export interface CurrentWorkspace {
  serverId: string | null;
  workspace: string | null;
  defaultWorkspace: string | null;
  loading: boolean;
}

export function useCurrentWorkspace(): CurrentWorkspace {
  const bridge = useBridge();
  const active = useQuery({
    queryKey: keys.servers.active(),
    queryFn: () => bridge.servers.active(),
    staleTime: 60_000,
  });
  const picked = useWorkspaceStore((s) => s.picked);
  const server = active.data ?? null;
  const defaultWorkspace = server?.defaultWorkspace ?? null;
  const workspace = (server ? picked[server.id] : undefined) ?? defaultWorkspace;
  return {
    serverId: server?.id ?? null,
    workspace,
    defaultWorkspace,
    loading: active.isPending,
  };
}
