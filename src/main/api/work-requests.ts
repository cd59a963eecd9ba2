/** Work request operations: create, read, list, retry, abort, update, complete, sign, unblock. */
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
  type WorkRequestExternalDebsignRequest,
  type WorkRequestRequest,
  type WorkRequestResponse,
  type WorkRequestUnblockRequest,
} from '../../shared/models';
import { fetchPage, paginate, type Page, type Query } from './pagination';
import { unsupportedError, type ApiContext } from './revision';
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

export async function workRequestCreate(
  ctx: ApiContext,
  request: WorkRequestRequest,
): Promise<WorkRequestResponse> {
  const body = parseRequest('workRequestCreate', workRequestRequestSchema, request);
  const { workspace, ...rest } = body;
  return ctx.request({
    operation: 'workRequestCreate',
    method: 'POST',
    path: '/work-request/',
    // Without a workspace the server uses its default one; `null` would be refused.
    body: workspace === null ? rest : body,
    expect: [200, 201],
    schema: workRequestResponseSchema,
  });
}

export async function workRequestGet(ctx: ApiContext, id: number): Promise<WorkRequestResponse> {
  return ctx.request({
    operation: 'workRequestGet',
    method: 'GET',
    path: path(requireId('workRequestGet', id)),
    schema: workRequestResponseSchema,
  });
}

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
export async function workRequestRetry(ctx: ApiContext, id: number): Promise<WorkRequestResponse> {
  return ctx.request({
    operation: 'workRequestRetry',
    method: 'POST',
    path: path(requireId('workRequestRetry', id), 'retry'),
    body: {},
    schema: workRequestResponseSchema,
  });
}

export async function workRequestAbort(ctx: ApiContext, id: number): Promise<WorkRequestResponse> {
  await ctx.require('workRequestAbort', 'abort');
  return ctx.request({
    operation: 'workRequestAbort',
    method: 'POST',
    path: path(requireId('workRequestAbort', id), 'abort'),
    body: {},
    schema: workRequestResponseSchema,
  });
}

/** Priority adjustment. When a server answers with no content, the request is re-read. */
export async function workRequestUpdate(
  ctx: ApiContext,
  id: number,
  priorityAdjustment: number,
): Promise<WorkRequestResponse> {
  const body = parseRequest('workRequestUpdate', workRequestUpdateRequestSchema, {
    priority_adjustment: priorityAdjustment,
  });
  const updated = await ctx.request({
    operation: 'workRequestUpdate',
    method: 'PATCH',
    path: path(requireId('workRequestUpdate', id)),
    body,
    expect: [200, 204],
    schema: workRequestResponseSchema.optional(),
  });
  return updated ?? workRequestGet(ctx, id);
}

/**
 * Workers report a result. Current servers want the work request's own token and apply it
 * asynchronously; earlier ones want the worker's token.
 */
export async function workRequestCompletedUpdate(
  ctx: ApiContext,
  id: number,
  request: WorkRequestCompletedRequest,
): Promise<void> {
  const body = parseRequest(
    'workRequestCompletedUpdate',
    workRequestCompletedRequestSchema,
    request,
  );
  await ctx.request({
    operation: 'workRequestCompletedUpdate',
    method: 'PUT',
    path: path(requireId('workRequestCompletedUpdate', id), 'completed'),
    body,
    // The server rejects a second completion, so replaying a lost answer is not safe.
    idempotent: false,
  });
}

export async function workRequestExternalDebsignGet(
  ctx: ApiContext,
  id: number,
): Promise<WorkRequestResponse> {
  return ctx.request({
    operation: 'workRequestExternalDebsignGet',
    method: 'GET',
    path: path(requireId('workRequestExternalDebsignGet', id), 'external-debsign'),
    schema: workRequestResponseSchema,
  });
}

export async function workRequestExternalDebsignComplete(
  ctx: ApiContext,
  id: number,
  request: WorkRequestExternalDebsignRequest,
): Promise<WorkRequestResponse> {
  const body = parseRequest(
    'workRequestExternalDebsignComplete',
    workRequestExternalDebsignRequestSchema,
    request,
  );
  return ctx.request({
    operation: 'workRequestExternalDebsignComplete',
    method: 'POST',
    path: path(requireId('workRequestExternalDebsignComplete', id), 'external-debsign'),
    body,
    schema: workRequestResponseSchema,
  });
}

/** Manual unblock of a blocked step: accept or reject it, with optional notes. */
export async function workRequestUnblock(
  ctx: ApiContext,
  id: number,
  request: WorkRequestUnblockRequest,
): Promise<WorkRequestResponse> {
  const body = parseRequest('workRequestUnblock', workRequestUnblockRequestSchema, request);
  return ctx.request({
    operation: 'workRequestUnblock',
    method: 'POST',
    path: path(requireId('workRequestUnblock', id), 'unblock'),
    body,
    schema: workRequestResponseSchema,
  });
}

/** Answers a waiting `confirm` step (0.16). */
export async function workRequestConfirm(
  ctx: ApiContext,
  id: number,
  request: WorkRequestConfirmRequest = {},
): Promise<WorkRequestResponse> {
  await ctx.require('workRequestConfirm', 'confirm');
  const body = parseRequest('workRequestConfirm', workRequestConfirmRequestSchema, request);
  return ctx.request({
    operation: 'workRequestConfirm',
    method: 'POST',
    path: path(requireId('workRequestConfirm', id), 'confirm'),
    body,
    schema: workRequestResponseSchema,
  });
}
