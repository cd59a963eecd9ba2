/**
 * Collections of a workspace on the active server, their items, task configuration
 * collections, and lookups.
 */
import type { QueryKey } from '@tanstack/react-query';
import type { CollectionData, LookupResult, RequestArgs } from '@shared/contract';
import { defineMutation, defineQuery, type Scope } from './define';
import { useServerQuery } from './hooks';

export const collectionKeys = {
  list: (scope: Scope, workspace: string): QueryKey => [scope, 'collections', workspace],
  items: (scope: Scope, workspace: string, category: string, name: string): QueryKey => [
    ...collectionKeys.list(scope, workspace),
    category,
    name,
    'items',
  ],
  taskConfig: (scope: Scope, workspace: string, name: string): QueryKey => [
    scope,
    'taskConfig',
    workspace,
    name,
  ],
};

export const collectionQueries = {
  list: (scope: Scope, workspace: string) =>
    defineQuery(
      collectionKeys.list(scope, workspace),
      (bridge) => bridge.collections.list({ workspace }),
      {
        retry: false,
      },
    ),
  /** The active items (the first 200). */
  items: (scope: Scope, workspace: string, category: string, name: string) =>
    defineQuery(
      collectionKeys.items(scope, workspace, category, name),
      (bridge) => bridge.collections.items({ workspace, category, name, limit: 200 }),
      { retry: false },
    ),
  /** Kept as fetched until pushed or fetched again by hand: it is what the edit is based on. */
  taskConfig: (scope: Scope, workspace: string, name: string) =>
    defineQuery(
      collectionKeys.taskConfig(scope, workspace, name),
      (bridge) => bridge.taskConfig.fetch({ workspace, name }),
      { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
    ),
};

export function useCollections(workspace: string) {
  return useServerQuery((scope) => collectionQueries.list(scope, workspace));
}

type NewCollection = RequestArgs<'collections.create'>['collection'];
type CollectionChanges = RequestArgs<'collections.update'>['collection'];

export const collectionMutations = {
  /** Creates a collection (`id` null) or changes one. */
  save: defineMutation({
    fn: (
      bridge,
      args:
        | { workspace: string; id: null; collection: NewCollection }
        | { workspace: string; id: number; collection: Omit<CollectionChanges, 'id'> },
    ): Promise<CollectionData> =>
      args.id === null
        ? bridge.collections.create({ workspace: args.workspace, collection: args.collection })
        : bridge.collections.update({
            workspace: args.workspace,
            collection: { ...args.collection, id: args.id },
          }),
    invalidates: (scope, args) => [collectionKeys.list(scope, args.workspace)],
  }),
  remove: defineMutation({
    fn: (bridge, args: RequestArgs<'collections.delete'>) => bridge.collections.delete(args),
    invalidates: (scope, args) => [collectionKeys.list(scope, args.workspace)],
  }),
  /** A dry run changes nothing; a push replaces the collection's items. */
  pushTaskConfig: defineMutation({
    fn: (bridge, args: RequestArgs<'taskConfig.push'>) => bridge.taskConfig.push(args),
    invalidates: (scope, args) =>
      args.dryRun ? [] : [collectionKeys.taskConfig(scope, args.workspace, args.name)],
  }),
  /** Resolves one lookup, or a list of them, in the workspace. */
  lookup: defineMutation({
    fn: async (
      bridge,
      args:
        | { kind: 'single'; request: RequestArgs<'lookups.single'> }
        | { kind: 'multiple'; request: RequestArgs<'lookups.multiple'> },
    ): Promise<LookupResult[]> =>
      args.kind === 'single'
        ? [await bridge.lookups.single(args.request)]
        : bridge.lookups.multiple(args.request),
  }),
};
