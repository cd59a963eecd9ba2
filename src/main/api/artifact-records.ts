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
  type AssetCreateRequest,
  type AssetPermissionCheckRequest,
  type RelationCreateRequest,
} from '../../shared/models';
import { endpoint } from './endpoint';
import { seg } from './pagination';
import { parseRequest, requireId } from './validate';

/** Drops null optional fields: servers use their defaults for absent ones. */
function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as Partial<T>;
}

export const artifactCreate = endpoint(
  'artifactCreate',
  { method: 'POST', expect: [201], schema: artifactResponseSchema },
  (op, request: ArtifactCreateRequest) => ({
    path: '/artifact/',
    body: withoutNulls(parseRequest(op, artifactCreateRequestSchema, request)),
  }),
);

export const artifactGet = endpoint(
  'artifactGet',
  { method: 'GET', schema: artifactResponseSchema },
  (op, id: number) => ({ path: `/artifact/${String(requireId(op, id))}/` }),
);

/** Get-or-create: the server answers 201 for a new relation and 200 for an existing one. */
export const relationCreate = endpoint(
  'relationCreate',
  { method: 'POST', expect: [200, 201], schema: relationResponseSchema },
  (op, request: RelationCreateRequest) => ({
    path: '/artifact-relation/',
    body: parseRequest(op, relationCreateRequestSchema, request),
  }),
);

export interface RelationListOptions {
  /** Relations from this artifact. */
  artifactId?: number;
  /** Relations to this artifact. */
  targetId?: number;
}

export const relationList = endpoint(
  'relationList',
  { method: 'GET', schema: relationsResponseSchema },
  (op, options: RelationListOptions) => {
    const { artifactId, targetId } = options;
    if ((artifactId === undefined) === (targetId === undefined)) {
      throw new DebusineError('validation', `${op}: give exactly one of artifactId and targetId`, {
        operation: op,
        field: artifactId === undefined ? 'artifactId' : 'targetId',
      });
    }
    const query =
      artifactId !== undefined
        ? { artifact: requireId(op, artifactId, 'artifactId') }
        : { target_artifact: requireId(op, targetId, 'targetId') };
    return { path: '/artifact-relation/', query };
  },
);

/** Get-or-create for signing keys: an existing key answers 200 with the stored asset. */
export const assetCreate = endpoint(
  'assetCreate',
  { method: 'POST', expect: [200, 201], schema: assetResponseSchema },
  (op, request: AssetCreateRequest) => ({
    path: '/asset/',
    body: withoutNulls(parseRequest(op, assetCreateRequestSchema, request)),
  }),
);

export interface AssetListFilters {
  assetId?: number;
  workRequest?: number;
  workspace?: string;
}

/** Servers refuse a listing without any filter (400), which arrives as `validation`. */
export const assetList = endpoint(
  'assetList',
  { method: 'GET', schema: assetsResponseSchema },
  (_op, filters: AssetListFilters = {}) => ({
    path: '/asset/',
    query: {
      asset: filters.assetId,
      work_request: filters.workRequest,
      workspace: filters.workspace,
    },
  }),
);

/** Only a running signing work request's own token may ask (current servers). */
export const assetPermissionCheck = endpoint(
  'assetPermissionCheck',
  { method: 'POST', schema: assetPermissionCheckResponseSchema },
  (op, request: AssetPermissionCheckRequest) => {
    const r = parseRequest(op, assetPermissionCheckRequestSchema, request);
    return {
      path: `/asset/${seg(r.asset_category)}/${seg(r.asset_slug)}/${seg(r.permission_name)}/`,
      body: {
        artifact_id: r.artifact_id,
        work_request_id: r.work_request_id,
        workspace: r.workspace,
      },
    };
  },
);
