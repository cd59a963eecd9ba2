import type { z, ZodType } from 'zod';
import type { Parsed, RequestSpec } from './http';
import { paginate } from './pagination';
import type { ApiContext, ServerFeatures } from './revision';

/** What an endpoint's arguments decide: where the request goes and what it carries. */
export type Target = Pick<RequestSpec<undefined>, 'path' | 'body' | 'query'>;

/** What does not depend on the arguments, and the feature a server must offer. */
export type Fixed<S extends z.ZodType | undefined> = Omit<
  RequestSpec<S>,
  'operation' | keyof Target
> & {
  feature?: keyof ServerFeatures;
  /** Check the arguments before asking the server for the feature (some operations did). */
  argumentsFirst?: boolean;
};

/**
 * Builds an operation that is one request, so that each operation states only what is its
 * own. The checks always come in the same order, all before anything is sent: the feature
 * first (a server without it answers `unsupported` whatever the arguments), then `target`,
 * which checks the caller's arguments (request models, ids and names bound for the path)
 * in the order it reads them. (`argumentsFirst` swaps the two.)
 */
export function endpoint<A extends unknown[], S extends z.ZodType | undefined = undefined>(
  operation: string,
  fixed: Fixed<S>,
  target: (op: string, ...args: A) => Target,
): (ctx: ApiContext, ...args: A) => Promise<Parsed<S>> {
  const { feature, argumentsFirst, ...spec } = fixed;
  return async (ctx, ...args) => {
    const early = argumentsFirst ? target(operation, ...args) : undefined;
    if (feature) await ctx.require(operation, feature);
    return ctx.request({ operation, ...spec, ...(early ?? target(operation, ...args)) });
  };
}

/**
 * Builds a list operation of servers that offer `feature`: its items, fetched page by page
 * as the caller iterates. The feature is asked on the first item asked for.
 */
export function listing<A extends unknown[], T>(
  operation: string,
  feature: keyof ServerFeatures,
  item: ZodType<T>,
  target: (...args: A) => Pick<Target, 'path' | 'query'>,
): (ctx: ApiContext, ...args: A) => AsyncGenerator<T, void, undefined> {
  return async function* (ctx, ...args) {
    await ctx.require(operation, feature);
    const { path, query } = target(...args);
    yield* paginate(ctx, operation, path, item, query ?? {});
  };
}
