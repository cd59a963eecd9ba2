import type { z } from 'zod';
import type { Parsed, RequestSpec } from './http';
import type { ApiContext, ServerFeatures } from './revision';

/** What an endpoint's arguments decide: where the request goes and what it carries. */
export type Target = Pick<RequestSpec<undefined>, 'path' | 'body' | 'query'>;

/** What does not depend on the arguments, and the feature a server must offer. */
export type Fixed<S extends z.ZodType | undefined> = Omit<
  RequestSpec<S>,
  'operation' | keyof Target
> & { feature?: keyof ServerFeatures };

/**
 * Builds an operation that is one request, so that each operation states only what is its
 * own. The checks always come in the same order, all before anything is sent: the feature
 * first (a server without it answers `unsupported` whatever the arguments), then `target`,
 * which checks the caller's arguments (request models, ids and names bound for the path)
 * in the order it reads them.
 */
export function endpoint<A extends unknown[], S extends z.ZodType | undefined = undefined>(
  operation: string,
  fixed: Fixed<S>,
  target: (op: string, ...args: A) => Target,
): (ctx: ApiContext, ...args: A) => Promise<Parsed<S>> {
  const { feature, ...spec } = fixed;
  return async (ctx, ...args) => {
    if (feature) await ctx.require(operation, feature);
    return ctx.request({ operation, ...spec, ...target(operation, ...args) });
  };
}
