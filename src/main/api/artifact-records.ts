/**
 * Artifact records, relations and assets. (File transfer, upload and download, lives in
 * src/main/artifacts on top of the same transport.)
 */
import { DebusineError } from '../../shared/errors';
import {
  artifactCreateRequestSchema,
  artifactResponseSchema,
  assetCreateRequestSchema,
  assetPermissionCheckRequestSchema,
  assetPermissionCheckResponseSchema,
  assetResponseSchema,
  assetsResponseSchema,
  relationCreateRequestSchema,
  relationResponseSchema,
  relationsResponseSchema,
  type ArtifactCreateRequest,
  type ArtifactResponse,
  type AssetCreateRequest,
  type AssetPermissionCheckRequest,
  type AssetPermissionCheckResponse,
  type AssetResponse,
  type RelationCreateRequest,
  type RelationResponse,
} from '../../shared/models';
import { seg } from './pagination';
import type { ApiContext } from './revision';
import { parseRequest, requireId } from './validate';

/** Drops null optional fields: servers use their defaults for absent ones. */
function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as Partial<T>;
}

export async function artifactCreate(
  ctx: ApiContext,
  request: ArtifactCreateRequest,
): Promise<ArtifactResponse> {
  const body = parseRequest('artifactCreate', artifactCreateRequestSchema, request);
  return ctx.request({
    operation: 'artifactCreate',
    method: 'POST',
    path: '/artifact/',
    body: withoutNulls(body),
    expect: [201],
    schema: artifactResponseSchema,
  });
}

export async function artifactGet(ctx: ApiContext, id: number): Promise<ArtifactResponse> {
  return ctx.request({
    operation: 'artifactGet',
    method: 'GET',
    path: `/artifact/${String(requireId('artifactGet', id))}/`,
    schema: artifactResponseSchema,
  });
}

/** Get-or-create: the server answers 201 for a new relation and 200 for an existing one. */
export async function relationCreate(
  ctx: ApiContext,
  request: RelationCreateRequest,
): Promise<RelationResponse> {
  const body = parseRequest('relationCreate', relationCreateRequestSchema, request);
  return ctx.request({
    operation: 'relationCreate',
    method: 'POST',
    path: '/artifact-relation/',
    body,
    expect: [200, 201],
    schema: relationResponseSchema,
  });
}

export interface RelationListOptions {
  /** Relations from this artifact. */
  artifactId?: number;
  /** Relations to this artifact. */
  targetId?: number;
}

export async function relationList(
  ctx: ApiContext,
  options: RelationListOptions,
): Promise<RelationResponse[]> {
  const { artifactId, targetId } = options;
  if ((artifactId === undefined) === (targetId === undefined)) {
    throw new DebusineError(
      'validation',
      'relationList: give exactly one of artifactId and targetId',
      { operation: 'relationList', field: artifactId === undefined ? 'artifactId' : 'targetId' },
    );
  }
  const query =
    artifactId !== undefined
      ? { artifact: requireId('relationList', artifactId, 'artifactId') }
      : { target_artifact: requireId('relationList', targetId, 'targetId') };
  return ctx.request({
    operation: 'relationList',
    method: 'GET',
    path: '/artifact-relation/',
    query,
    schema: relationsResponseSchema,
  });
}

/** Get-or-create for signing keys: an existing key answers 200 with the stored asset. */
export async function assetCreate(
  ctx: ApiContext,
  request: AssetCreateRequest,
): Promise<AssetResponse> {
  const body = parseRequest('assetCreate', assetCreateRequestSchema, request);
  return ctx.request({
    operation: 'assetCreate',
    method: 'POST',
    path: '/asset/',
    body: withoutNulls(body),
    expect: [200, 201],
    schema: assetResponseSchema,
  });
}

export interface AssetListFilters {
  assetId?: number;
  workRequest?: number;
  workspace?: string;
}

/** Servers refuse a listing without any filter (400), which arrives as `validation`. */
export async function assetList(
  ctx: ApiContext,
  filters: AssetListFilters = {},
): Promise<AssetResponse[]> {
  return ctx.request({
    operation: 'assetList',
    method: 'GET',
    path: '/asset/',
    query: {
      asset: filters.assetId,
      work_request: filters.workRequest,
      workspace: filters.workspace,
    },
    schema: assetsResponseSchema,
  });
}

/** Only a running signing work request's own token may ask (current servers). */
export async function assetPermissionCheck(
  ctx: ApiContext,
  request: AssetPermissionCheckRequest,
): Promise<AssetPermissionCheckResponse> {
  const r = parseRequest('assetPermissionCheck', assetPermissionCheckRequestSchema, request);
  return ctx.request({
    operation: 'assetPermissionCheck',
    method: 'POST',
    path: `/asset/${seg(r.asset_category)}/${seg(r.asset_slug)}/${seg(r.permission_name)}/`,
    body: {
      artifact_id: r.artifact_id,
      work_request_id: r.work_request_id,
      workspace: r.workspace,
    },
    schema: assetPermissionCheckResponseSchema,
  });
}
