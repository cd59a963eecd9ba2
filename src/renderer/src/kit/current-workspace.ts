/**
 * The workspace the maintainers' editors work in (shared by the Workspaces, Collections and
 * Templates areas): the one the user picked on the active server, else its default.
 */
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { useWorkspaceStore } from '@renderer/state/workspace';

export interface CurrentWorkspace {
  serverId: string | null;
  workspace: string | null;
  defaultWorkspace: string | null;
  loading: boolean;
}

export function useCurrentWorkspace(): CurrentWorkspace {
  const active = useAppQuery(serverQueries.active);
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
