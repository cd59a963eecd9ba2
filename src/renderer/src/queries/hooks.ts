/**
 * The hooks that run the definitions of define.ts: server data under the active server's
 * scope, app data under APP, and mutations that write and invalidate what they declare.
 */
import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useBridge } from '@renderer/bridge';
import type { ServerSummary } from '@shared/contract';
import {
  NO_SERVER,
  PENDING,
  queryOptionsOf,
  type MutationDef,
  type QueryDef,
  type Scope,
} from './define';
import { scopeOf, serverQueries } from './servers';

/** Per call site: whether the query may run now (it runs by default). */
export interface QueryGate {
  enabled?: boolean;
}

export function useAppQuery<T>(def: QueryDef<T>, gate: QueryGate = {}): UseQueryResult<T> {
  const bridge = useBridge();
  return useQuery({ ...queryOptionsOf(def, bridge), enabled: gate.enabled ?? true });
}

/**
 * The scope of server data now: the active server profile's id, NO_SERVER without one (or
 * when main could not say), undefined while that is not known yet.
 */
export function useScope(): Scope | undefined {
  const active = useAppQuery(serverQueries.active);
  if (active.data !== undefined) return scopeOf(active.data);
  return active.isError ? NO_SERVER : undefined;
}

/** The scope the cache holds now (for event handlers and mutations, outside rendering). */
export function currentScope(queryClient: QueryClient): Scope | undefined {
  const active = queryClient.getQueryData<ServerSummary | null>(serverQueries.active.key);
  return active === undefined ? undefined : scopeOf(active);
}

/**
 * A query of server data, keyed under the active server: `make` builds its definition for
 * a scope. It waits (pending) until the active server is known.
 */
export function useServerQuery<T>(
  make: (scope: Scope) => QueryDef<T>,
  gate: QueryGate = {},
): UseQueryResult<T> {
  const bridge = useBridge();
  const scope = useScope();
  return useQuery(
    scope === undefined
      ? // Nothing is fetched under this key, and it is dropped once the scope is known.
        { ...queryOptionsOf(make(PENDING), bridge), enabled: false, gcTime: 0 }
      : { ...queryOptionsOf(make(scope), bridge), enabled: gate.enabled ?? true },
  );
}

export interface MutationHandlers<V, R, C> {
  onMutate?: (variables: V) => C;
  /**
   * After the definition's writes. `invalidated` settles once what it made stale has been
   * read again: return it to keep the mutation pending until then.
   */
  onSuccess?: (result: R, variables: V, invalidated: Promise<void>, context: C) => unknown;
  onError?: (error: Error, variables: V, context: C | undefined) => unknown;
  onSettled?: () => unknown;
}

/** Runs a defined mutation: its request, then its writes and invalidations, then `onSuccess`. */
export function useMutationOf<V, R, C = undefined>(
  def: MutationDef<V, R>,
  handlers: MutationHandlers<V, R, C> = {},
): UseMutationResult<R, Error, V, C> {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const { onMutate, onSuccess, onError, onSettled } = handlers;
  return useMutation<R, Error, V, C>({
    mutationFn: (variables) => def.fn(bridge, variables),
    ...(onMutate ? { onMutate: (variables: V) => onMutate(variables) } : {}),
    onSuccess: (result, variables, context) => {
      const scope = currentScope(queryClient) ?? NO_SERVER;
      def.writes?.(queryClient, scope, result, variables);
      const stale = def.invalidates?.(scope, variables, result) ?? [];
      const invalidated = Promise.all(
        stale.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ).then(() => undefined);
      return onSuccess?.(result, variables, invalidated, context);
    },
    ...(onError
      ? {
          onError: (error: Error, variables: V, context: C | undefined) =>
            onError(error, variables, context),
        }
      : {}),
    ...(onSettled ? { onSettled: () => onSettled() } : {}),
  });
}
