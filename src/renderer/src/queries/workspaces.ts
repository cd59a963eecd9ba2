/** Workspaces of the active server: inheritance chains and assets. */
import type { QueryKey } from '@tanstack/react-query';
import type { RequestArgs, WorkspaceInheritanceChain } from '@shared/contract';
import { defineMutation, defineQuery, type Scope } from './define';

/** Which assets a listing asks for: none, or some of these. */
export type AssetFilters = NonNullable<RequestArgs<'assets.list'>>;

export const workspaceKeys = {
  inheritance: (scope: Scope, workspace: string): QueryKey => [
    scope,
    'workspaces',
    workspace,
    'inheritance',
  ],
  assets: (scope: Scope): QueryKey => [scope, 'assets'],
};

export const workspaceQueries = {
  inheritance: (scope: Scope, workspace: string) =>
    defineQuery(
      workspaceKeys.inheritance(scope, workspace),
      (bridge) => bridge.workspaces.getInheritance({ workspace }),
      { retry: false },
    ),
  assets: (scope: Scope, filters: AssetFilters) =>
    defineQuery(
      [...workspaceKeys.assets(scope), filters],
      (bridge) => bridge.assets.list(filters),
      {
        retry: false,
      },
    ),
};

export const workspaceMutations = {
  /** The server's answer is the chain as it keeps it: it replaces the cached one. */
  setInheritance: defineMutation({
    fn: (bridge, args: RequestArgs<'workspaces.setInheritance'>) =>
      bridge.workspaces.setInheritance(args),
    writes: (queryClient, scope, result: WorkspaceInheritanceChain, args) => {
      queryClient.setQueryData(workspaceKeys.inheritance(scope, args.workspace), result);
    },
  }),
  createAsset: defineMutation({
    fn: (bridge, args: RequestArgs<'assets.create'>) => bridge.assets.create(args),
    invalidates: (scope) => [workspaceKeys.assets(scope)],
  }),
  checkAssetPermission: defineMutation({
    fn: (bridge, args: RequestArgs<'assets.checkPermission'>) =>
      bridge.assets.checkPermission(args),
  }),
};
