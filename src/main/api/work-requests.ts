/** Work request operations: create, read, list, retry, abort, update, complete, sign, unblock. */
import type { z } from 'zod';
import {
  workRequestCompletedRequestSchema,
  workRequestConfirmRequestSchema,
  workRequestExternalDebsignRequestSchema,
  workRequestRequestSchema,
  workRequestResponseSchema,
  workRequestUnblockRequestSchema,
  workRequestUpdateRequestSchema,
  type WorkRequestCompletedRequest,
  type WorkRequestConfirmRequest,
  type WorkRequestRequest,
  type WorkRequestResponse,
} from '../../shared/models';
import { endpoint } from './endpoint';
import { fetchPage, paginate, type Page, type Query } from './pagination';
import { unsupportedError, type ApiContext, type ServerFeatures } from './revision';
import { parseRequest, requireId } from './validate';

export interface WorkRequestFilters {
  status?: string;
  taskType?: string;
  /** Only work requests without a parent (workflow roots and standalone tasks). */
  rootOnly?: boolean;
  ids?: readonly number[];
}

const path = (id: number, action = ''): string =>
  `/work-request/${String(id)}/${action ? `${action}/` : ''}`;

/**
 * An action on one work request (retry, abort, unblock, …): a POST to its own path,
 * answered with the work request. `body` checks the caller's model, before the id.
 */
function action<A extends unknown[]>(
  operation: string,
  name: string,
  body: (op: string, ...request: A) => unknown,
  feature?: keyof ServerFeatures,
): (ctx: ApiContext, id: number, ...request: A) => Promise<WorkRequestResponse> {
  return endpoint(
    operation,
    { method: 'POST', feature, schema: workRequestResponseSchema },
    (op, id: number, ...request: A) => ({
      body: body(op, ...request),
      path: path(requireId(op, id), name),
    }),
  );
}

const empty = (): object => ({});

/** The body of an action whose caller gives one request model. */
const model =
  <M extends z.ZodType>(schema: M) =>
  (op: string, request: z.input<M>): z.output<M> =>
    parseRequest(op, schema, request);

export const workRequestCreate = endpoint(
  'workRequestCreate',
  { method: 'POST', expect: [200, 201], schema: workRequestResponseSchema },
  (op, request: WorkRequestRequest) => {
    const body = parseRequest(op, workRequestRequestSchema, request);
    const { workspace, ...rest } = body;
    // Without a workspace the server uses its default one; `null` would be refused.
    return { path: '/work-request/', body: workspace === null ? rest : body };
  },
);

export const workRequestGet = endpoint(
  'workRequestGet',
  { method: 'GET', schema: workRequestResponseSchema },
  (op, id: number) => ({ path: path(requireId(op, id)) }),
);

function listQuery(filters: WorkRequestFilters): Query {
  return {
    status: filters.status,
    task_type: filters.taskType,
    root_only: filters.rootOnly ? 'true' : undefined,
    ids: filters.ids?.join(','),
  };
}

/**
 * Newest first. Current servers filter; earlier ones ignore the filter parameters, so the
 * client filters what they send (except `rootOnly`: they do not say who a parent is).
 */
export async function* workRequestIter(
  ctx: ApiContext,
  filters: WorkRequestFilters = {},
): AsyncGenerator<WorkRequestResponse, void, undefined> {
  const revision = await ctx.revision();
  if (revision.features.workRequestFilters) {
    const query = listQuery(filters);
    yield* paginate(ctx, 'workRequestIter', '/work-request/', workRequestResponseSchema, query);
    return;
  }
  if (filters.rootOnly) throw unsupportedError('workRequestIter (rootOnly)', revision);
  const ids = filters.ids ? new Set(filters.ids) : undefined;
  for await (const wr of paginate(
    ctx,
    'workRequestIter',
    '/work-request/',
    workRequestResponseSchema,
  )) {
    if (filters.status !== undefined && wr.status !== filters.status) continue;
    if (filters.taskType !== undefined && wr.task_type !== filters.taskType) continue;
    if (ids && !ids.has(wr.id)) continue;
    yield wr;
  }
}

/**
 * One page of the list, at a URL built with `workRequestPageUrl` or a page's `next`, for
 * callers that keep their place in the list themselves. The filters are the server's to
 * apply: earlier servers ignore them (see workRequestIter).
 */
export function workRequestPage(ctx: ApiContext, url: string): Promise<Page<WorkRequestResponse>> {
  return fetchPage(ctx, 'workRequestIter', url, workRequestResponseSchema);
}

/** The URL of the list's first page with these filters. */
export function workRequestPageUrl(ctx: ApiContext, filters: WorkRequestFilters = {}): string {
  return ctx.http.url('/work-request/', { query: listQuery(filters) });
}

/** Ordinary tasks are superseded by a new work request (returned); workflows retry in place. */
export const workRequestRetry = action('workRequestRetry', 'retry', empty);

export const workRequestAbort = action('workRequestAbort', 'abort', empty, 'abort');

/** Priority adjustment. When a server answers with no content, the request is re-read. */
export async function workRequestUpdate(
  ctx: ApiContext,
  id: number,
  priorityAdjustment: number,
): Promise<WorkRequestResponse> {
  const updated = await patchPriority(ctx, id, priorityAdjustment);
  return updated ?? workRequestGet(ctx, id);
}

const patchPriority = endpoint(
  'workRequestUpdate',
  { method: 'PATCH', expect: [200, 204], schema: workRequestResponseSchema.optional() },
  (op, id: number, priorityAdjustment: number) => ({
    body: parseRequest(op, workRequestUpdateRequestSchema, {
      priority_adjustment: priorityAdjustment,
    }),
    path: path(requireId(op, id)),
  }),
);

/**
 * Workers report a result. Current servers want the work request's own token and apply it
 * asynchronously; earlier ones want the worker's token.
 */
export const workRequestCompletedUpdate = endpoint(
  'workRequestCompletedUpdate',
  // The server rejects a second completion, so replaying a lost answer is not safe.
  { method: 'PUT', idempotent: false },
  (op, id: number, request: WorkRequestCompletedRequest) => ({
    body: parseRequest(op, workRequestCompletedRequestSchema, request),
    path: path(requireId(op, id), 'completed'),
  }),
);

export const workRequestExternalDebsignGet = endpoint(
  'workRequestExternalDebsignGet',
  { method: 'GET', schema: workRequestResponseSchema },
  (op, id: number) => ({ path: path(requireId(op, id), 'external-debsign') }),
);

export const workRequestExternalDebsignComplete = action(
  'workRequestExternalDebsignComplete',
  'external-debsign',
  model(workRequestExternalDebsignRequestSchema),
);

/**
 * Asks whether this user may complete an externaldebsign step, without completing it: a
 * completion naming no signed artifact, which Debusine refuses as incomplete (400) once it
 * has checked that the user created the step (403 otherwise). Any other answer is an error,
 * a success above all (a server that completes a step with nothing signed).
 */
export const workRequestExternalDebsignMayComplete = endpoint(
  'workRequestExternalDebsignMayComplete',
  { method: 'POST', expect: [400], idempotent: false },
  (op, id: number) => ({ path: path(requireId(op, id), 'external-debsign'), body: {} }),
);

/** Manual unblock of a blocked step: accept or reject it, with optional notes. */
export const workRequestUnblock = action(
  'workRequestUnblock',
  'unblock',
  model(workRequestUnblockRequestSchema),
);

/** Answers a waiting `confirm` step (0.16). */
export const workRequestConfirm = action(
  'workRequestConfirm',
  'confirm',
  (op, request: WorkRequestConfirmRequest = {}) =>
    parseRequest(op, workRequestConfirmRequestSchema, request),
  'confirm',
);
