/**
 * How the renderer describes what it reads from main and what it changes there, so that each
 * is written once: a query is its key, its fetcher and its options; a mutation is its
 * request, the cache entries its answer replaces, and the keys it makes stale.
 *
 * Keys start with their scope. Data from a Debusine server is kept under the id of the
 * server profile that was active when it was read, so that an artifact, a collection or a
 * template with the same id on another server is another entry; data that belongs to the
 * app itself (the server profiles, the session, uploads, settings) is kept under APP.
 */
import type { QueryClient, QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { BridgeClient } from '@shared/contract';

/**
 * The scope of app data. Profile ids are lower-case letters, digits and dashes, so no
 * profile can be named like this, nor like NO_SERVER.
 */
export const APP = '@app';

/** The scope of server data while no server is active (main answers that it has none). */
export const NO_SERVER = '@none';

/** The key's scope while the active server is not known yet: nothing is fetched under it. */
export const PENDING = '@pending';

/** A server profile's id, or NO_SERVER. */
export type Scope = string;

/** The prefix of every key: what invalidating "everything" names. */
export const EVERYTHING: QueryKey = [];

/** How a query behaves besides its key and fetcher (freshness, retries, polling). */
export type QueryTuning<T> = Omit<UseQueryOptions<T, Error, T>, 'queryKey' | 'queryFn' | 'enabled'>;

/**
 * What a fetcher may know besides the bridge: the cache it fills, its own key (a fetcher
 * that refreshes what it read before reads its previous answer there), and the signal
 * that says its answer is no longer wanted (a fetcher of several requests stops asking
 * then). Reading the signal is what tells react-query the fetcher heeds it.
 */
export interface QueryContext {
  readonly client: QueryClient;
  readonly queryKey: QueryKey;
  readonly signal?: AbortSignal;
}

export interface QueryDef<T> {
  readonly key: QueryKey;
  readonly fn: (bridge: BridgeClient, context: QueryContext) => Promise<T>;
  readonly options: QueryTuning<T>;
}

export function defineQuery<T>(
  key: QueryKey,
  fn: (bridge: BridgeClient, context: QueryContext) => Promise<T>,
  options: QueryTuning<T> = {},
): QueryDef<T> {
  return { key, fn, options };
}

/** What useQuery, useSuspenseQuery, fetchQuery and prefetchQuery take for a definition. */
export function queryOptionsOf<T>(
  def: QueryDef<T>,
  bridge: BridgeClient,
): UseQueryOptions<T, Error, T> {
  return {
    ...def.options,
    queryKey: def.key,
    queryFn: (context) =>
      def.fn(bridge, {
        client: context.client,
        queryKey: context.queryKey,
        // A getter: react-query stops a read whose last view closed only when its fetcher
        // read the signal; the fetchers that never do are left to finish, as before.
        get signal() {
          return context.signal;
        },
      }),
  };
}

export interface MutationDef<V, R> {
  readonly fn: (bridge: BridgeClient, variables: V) => Promise<R>;
  /** Cache entries the answer replaces directly, under the scope it ran in. */
  readonly writes?: (queryClient: QueryClient, scope: Scope, result: R, variables: V) => void;
  /** The keys the answer makes stale (prefixes), under the scope it ran in. */
  readonly invalidates?: (scope: Scope, variables: V, result: R) => readonly QueryKey[];
}

export function defineMutation<V, R>(def: MutationDef<V, R>): MutationDef<V, R> {
  return def;
}
