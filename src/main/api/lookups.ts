/**
 * Lookups. Current servers (0.13+) resolve in a workspace for a user token and answer
 * `artifact`/`bare`/`collection`; earlier ones resolve for a work request assigned to the
 * calling worker (a worker token) and answer `a`/`b`/`c`. Results are normalised to the
 * letters in `result_type`, the server's value kept in `raw_result_type`.
 */
import type { z } from 'zod';
import { DebusineError } from '../../shared/errors';
import {
  lookupMultipleRequestSchema,
  lookupMultipleResponseSchema,
  lookupSingleRequestSchema,
  lookupSingleResponseSchema,
} from '../../shared/models';
import type { Parsed } from './http';
import type { ApiContext, ServerRevision } from './revision';
import { parseRequest } from './validate';

interface LookupBody {
  lookup: unknown;
  work_request: number | null;
  workspace: string | null;
  workflow_root: number | null;
  expect_type: string;
  default_category: string | null;
}

function bodyFor(operation: string, revision: ServerRevision, r: LookupBody): object {
  const common = {
    lookup: r.lookup,
    expect_type: r.expect_type,
    ...(r.default_category !== null ? { default_category: r.default_category } : {}),
  };
  if (revision.features.lookupsByWorkspace) {
    return {
      ...common,
      ...(r.workspace !== null ? { workspace: r.workspace } : {}),
      ...(r.work_request !== null ? { work_request: r.work_request } : {}),
      ...(r.workflow_root !== null ? { workflow_root: r.workflow_root } : {}),
    };
  }
  if (r.work_request === null) {
    throw new DebusineError(
      'validation',
      `${operation}: this server (Debusine ${revision.release}) looks up for a work request: ` +
        'give work_request (and use the worker token that runs it)',
      { operation, field: 'work_request', server: revision.apiUrl },
    );
  }
  for (const field of ['workspace', 'workflow_root'] as const) {
    if (r[field] !== null) {
      throw new DebusineError(
        'validation',
        `${operation}: this server (Debusine ${revision.release}) does not look up by ${field}`,
        { operation, field, server: revision.apiUrl },
      );
    }
  }
  return { ...common, work_request: r.work_request };
}

/** A lookup: the request is checked, then shaped for the server's revision (bodyFor). */
function lookup<M extends z.ZodType<LookupBody>, S extends z.ZodType>(
  operation: string,
  path: string,
  model: M,
  schema: S,
): (ctx: ApiContext, request: z.input<M>) => Promise<Parsed<S>> {
  return async (ctx, request) => {
    const r = parseRequest(operation, model, request);
    const revision = await ctx.revision();
    return ctx.request({
      operation,
      method: 'POST',
      path,
      body: bodyFor(operation, revision, r),
      // A lookup changes nothing: it may be retried.
      idempotent: true,
      schema,
    });
  };
}

export const lookupSingle = lookup(
  'lookupSingle',
  '/lookup/single/',
  lookupSingleRequestSchema,
  lookupSingleResponseSchema,
);

export const lookupMultiple = lookup(
  'lookupMultiple',
  '/lookup/multiple/',
  lookupMultipleRequestSchema,
  lookupMultipleResponseSchema,
);
