/**
 * DebusineClient: one async method per operation of the Debusine API, named in camelCase
 * after the Debusine client's own (`work_request_get` is `workRequestGet`; the list with
 * what each server answers is docs/api-operations.md), speaking to real Debusine servers
 * of the current (0.13+, tested with
 * 0.16) and the earlier (0.11/0.12, tested with 0.11) revisions. The revision is detected
 * once per client (see revision.ts) and each operation picks the form its server speaks;
 * one a server lacks fails with `unsupported`, naming the server and its release.
 *
 * The operations live in per-area modules; this class is the one thing callers construct.
 */
import { DebusineError } from '../../shared/errors';
import {
  whoamiSchema,
  type ArtifactCreateRequest,
  type ArtifactResponse,
  type AssetCreateRequest,
  type AssetPermissionCheckRequest,
  type AssetPermissionCheckResponse,
  type AssetResponse,
  type CollectionData,
  type CollectionDataNew,
  type CollectionItem,
  type CollectionUpdateRequest,
  type CreateWorkflowRequest,
  type LookupMultipleRequest,
  type LookupSingleRequest,
  type LookupSingleResponse,
  type RelationCreateRequest,
  type RelationResponse,
  type TaskConfigurationCollectionContents,
  type TaskConfigurationCollectionUpdateResults,
  type TaskConfigurationPushRequest,
  type Whoami,
  type WorkflowTemplateData,
  type WorkflowTemplateDataNew,
  type WorkflowTemplateRequest,
  type WorkflowTemplateResponse,
  type WorkflowTemplateUpdateRequest,
  type WorkRequestCompletedRequest,
  type WorkRequestConfirmRequest,
  type WorkRequestExternalDebsignRequest,
  type WorkRequestRequest,
  type WorkRequestResponse,
  type WorkRequestUnblockRequest,
  type WorkspaceInheritanceChain,
  type WorkspaceInheritanceChainInput,
} from '../../shared/models';
import * as records from './artifact-records';
import * as collections from './collections';
import { HttpTransport, type HttpOptions } from './http';
import * as lookups from './lookups';
import type { Page } from './pagination';
import { userName } from './users';
import { ApiContext, type ServerRevision } from './revision';
import * as wr from './work-requests';
import * as workflows from './workflows';
import * as workspaces from './workspaces';

export type { AssetListFilters, RelationListOptions } from './artifact-records';
export type { CollectionItemFilters } from './collections';
export type { ServerFeatures, ServerRevision } from './revision';
export type { WorkRequestFilters } from './work-requests';

/** `apiUrl`, optional `token` and `scope`; the other transport options are for tests. */
export type DebusineClientOptions = HttpOptions;

type Iter<T> = AsyncGenerator<T, void, undefined>;

export class DebusineClient {
  readonly http: HttpTransport;
  readonly #ctx: ApiContext;

  constructor(options: DebusineClientOptions) {
    this.http = new HttpTransport(options);
    this.#ctx = new ApiContext(this.http);
  }

  get apiUrl(): string {
    return this.http.apiUrl;
  }

  get scope(): string | undefined {
    return this.http.scope;
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** The server's revision and features, detected on first use and cached. */
  serverRevision(): Promise<ServerRevision> {
    return this.#ctx.revision();
  }

  /** Who the server thinks we are: the way to check a token (bad ones become anonymous). */
  async whoami(): Promise<Whoami> {
    return this.#ctx.request({
      operation: 'whoami',
      method: 'GET',
      path: '/whoami/',
      schema: whoamiSchema,
    });
  }

  /** Like whoami, but fails with an `auth` error when the token is not accepted. */
  async checkToken(): Promise<Whoami> {
    const me = await this.whoami();
    if (!me.auth) {
      throw new DebusineError(
        'auth',
        this.http.hasToken
          ? 'The server did not accept the token (it is unknown, expired or disabled).'
          : 'No token is configured for this server.',
        { operation: 'checkToken', server: this.apiUrl },
      );
    }
    return me;
  }

  /** The username behind a user id (`created_by`); null where the server does not say. */
  userName(id: number): Promise<string | null> {
    return userName(this.http, id);
  }

  /** A web UI address from a server-given path (`url`, `links.webui_self`). */
  webuiUrl(path: string): string {
    return workspaces.webuiUrl(this.apiUrl, path);
  }

  // Artifacts, relations, assets ----------------------------------------------------------

  artifactCreate(request: ArtifactCreateRequest): Promise<ArtifactResponse> {
    return records.artifactCreate(this.#ctx, request);
  }
  artifactGet(id: number): Promise<ArtifactResponse> {
    return records.artifactGet(this.#ctx, id);
  }
  /** An existing identical relation counts as success. */
  relationCreate(request: RelationCreateRequest): Promise<RelationResponse> {
    return records.relationCreate(this.#ctx, request);
  }
  /** Exactly one of artifactId (relations from it) or targetId (relations to it). */
  relationList(options: records.RelationListOptions): Promise<RelationResponse[]> {
    return records.relationList(this.#ctx, options);
  }
  assetCreate(request: AssetCreateRequest): Promise<AssetResponse> {
    return records.assetCreate(this.#ctx, request);
  }
  assetList(filters: records.AssetListFilters = {}): Promise<AssetResponse[]> {
    return records.assetList(this.#ctx, filters);
  }
  assetPermissionCheck(
    request: AssetPermissionCheckRequest,
  ): Promise<AssetPermissionCheckResponse> {
    return records.assetPermissionCheck(this.#ctx, request);
  }

  // Collections and task configuration ----------------------------------------------------

  collectionCreate(workspace: string, data: CollectionDataNew): Promise<CollectionData> {
    return collections.collectionCreate(this.#ctx, workspace, data);
  }
  collectionGet(workspace: string, category: string, name: string): Promise<CollectionData> {
    return collections.collectionGet(this.#ctx, workspace, category, name);
  }
  collectionIter(workspace: string): Iter<CollectionData> {
    return collections.collectionIter(this.#ctx, workspace);
  }
  collectionUpdate(workspace: string, data: CollectionUpdateRequest): Promise<CollectionData> {
    return collections.collectionUpdate(this.#ctx, workspace, data);
  }
  collectionDelete(workspace: string, id: number): Promise<void> {
    return collections.collectionDelete(this.#ctx, workspace, id);
  }
  collectionItemIter(
    workspace: string,
    category: string,
    name: string,
    filters?: collections.CollectionItemFilters,
  ): Iter<CollectionItem> {
    return collections.collectionItemIter(this.#ctx, workspace, category, name, filters);
  }
  collectionItemGet(
    workspace: string,
    category: string,
    name: string,
    itemName: string,
  ): Promise<CollectionItem> {
    return collections.collectionItemGet(this.#ctx, workspace, category, name, itemName);
  }
  fetchTaskConfigurationCollection(
    workspace: string,
    name: string,
  ): Promise<TaskConfigurationCollectionContents> {
    return collections.fetchTaskConfigurationCollection(this.#ctx, workspace, name);
  }
  pushTaskConfigurationCollection(
    workspace: string,
    contents: TaskConfigurationPushRequest,
    options: { dryRun?: boolean } = {},
  ): Promise<TaskConfigurationCollectionUpdateResults> {
    return collections.pushTaskConfigurationCollection(this.#ctx, workspace, contents, options);
  }

  // Lookups --------------------------------------------------------------------------------

  lookupSingle(request: LookupSingleRequest): Promise<LookupSingleResponse> {
    return lookups.lookupSingle(this.#ctx, request);
  }
  lookupMultiple(request: LookupMultipleRequest): Promise<LookupSingleResponse[]> {
    return lookups.lookupMultiple(this.#ctx, request);
  }

  // Work requests --------------------------------------------------------------------------

  workRequestCreate(request: WorkRequestRequest): Promise<WorkRequestResponse> {
    return wr.workRequestCreate(this.#ctx, request);
  }
  workRequestGet(id: number): Promise<WorkRequestResponse> {
    return wr.workRequestGet(this.#ctx, id);
  }
  /** Newest first, fetched page by page as the caller iterates. */
  workRequestIter(filters: wr.WorkRequestFilters = {}): Iter<WorkRequestResponse> {
    return wr.workRequestIter(this.#ctx, filters);
  }
  /** One page of the list, at a URL from workRequestPageUrl or a page's `next`. */
  workRequestPage(url: string): Promise<Page<WorkRequestResponse>> {
    return wr.workRequestPage(this.#ctx, url);
  }
  /** The URL of the list's first page with these filters (the server applies them, 0.13+). */
  workRequestPageUrl(filters: wr.WorkRequestFilters = {}): string {
    return wr.workRequestPageUrl(this.#ctx, filters);
  }
  workRequestRetry(id: number): Promise<WorkRequestResponse> {
    return wr.workRequestRetry(this.#ctx, id);
  }
  workRequestAbort(id: number): Promise<WorkRequestResponse> {
    return wr.workRequestAbort(this.#ctx, id);
  }
  workRequestUpdate(id: number, priorityAdjustment: number): Promise<WorkRequestResponse> {
    return wr.workRequestUpdate(this.#ctx, id, priorityAdjustment);
  }
  workRequestCompletedUpdate(id: number, request: WorkRequestCompletedRequest): Promise<void> {
    return wr.workRequestCompletedUpdate(this.#ctx, id, request);
  }
  workRequestExternalDebsignGet(id: number): Promise<WorkRequestResponse> {
    return wr.workRequestExternalDebsignGet(this.#ctx, id);
  }
  workRequestExternalDebsignComplete(
    id: number,
    request: WorkRequestExternalDebsignRequest,
  ): Promise<WorkRequestResponse> {
    return wr.workRequestExternalDebsignComplete(this.#ctx, id, request);
  }
  workRequestUnblock(id: number, request: WorkRequestUnblockRequest): Promise<WorkRequestResponse> {
    return wr.workRequestUnblock(this.#ctx, id, request);
  }
  workRequestConfirm(
    id: number,
    request?: WorkRequestConfirmRequest,
  ): Promise<WorkRequestResponse> {
    return wr.workRequestConfirm(this.#ctx, id, request);
  }

  // Workflows and templates ----------------------------------------------------------------

  workflowCreate(request: CreateWorkflowRequest): Promise<WorkRequestResponse> {
    return workflows.workflowCreate(this.#ctx, request);
  }
  workflowTemplateCreate(
    workspace: string,
    data: WorkflowTemplateDataNew,
  ): Promise<WorkflowTemplateData> {
    return workflows.workflowTemplateCreate(this.#ctx, workspace, data);
  }
  workflowTemplateCreateLegacy(
    request: WorkflowTemplateRequest,
  ): Promise<WorkflowTemplateResponse> {
    return workflows.workflowTemplateCreateLegacy(this.#ctx, request);
  }
  workflowTemplateGet(workspace: string, template: number | string): Promise<WorkflowTemplateData> {
    return workflows.workflowTemplateGet(this.#ctx, workspace, template);
  }
  workflowTemplateIter(workspace: string): Iter<WorkflowTemplateData> {
    return workflows.workflowTemplateIter(this.#ctx, workspace);
  }
  workflowTemplateUpdate(
    workspace: string,
    data: WorkflowTemplateUpdateRequest,
  ): Promise<WorkflowTemplateData> {
    return workflows.workflowTemplateUpdate(this.#ctx, workspace, data);
  }
  workflowTemplateDelete(workspace: string, template: number | string): Promise<void> {
    return workflows.workflowTemplateDelete(this.#ctx, workspace, template);
  }

  // Workspaces -----------------------------------------------------------------------------

  getWorkspaceInheritance(workspace: string): Promise<WorkspaceInheritanceChain> {
    return workspaces.getWorkspaceInheritance(this.#ctx, workspace);
  }
  setWorkspaceInheritance(
    workspace: string,
    chain: WorkspaceInheritanceChainInput,
  ): Promise<WorkspaceInheritanceChain> {
    return workspaces.setWorkspaceInheritance(this.#ctx, workspace, chain);
  }
}
