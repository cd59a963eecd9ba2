/**
 * DebusineClient: one async function per operation of the Debusine API, named in camelCase
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
import { whoamiSchema, type Whoami } from '../../shared/models';
import * as archives from './archives';
import * as records from './artifact-records';
import * as collections from './collections';
import { HttpTransport, type HttpOptions } from './http';
import * as lookups from './lookups';
import { userName } from './users';
import { ApiContext, type ServerRevision } from './revision';
import * as queue from './service-status';
import * as wr from './work-requests';
import * as workflows from './workflows';
import * as workspaces from './workspaces';

export type { AssetListFilters, RelationListOptions } from './artifact-records';
export type { CollectionItemFilters } from './collections';
export type { ServerFeatures, ServerRevision } from './revision';
export type { WorkRequestFilters } from './work-requests';

/** `apiUrl`, optional `token` and `scope`; the other transport options are for tests. */
export type DebusineClientOptions = HttpOptions;

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

  /** An operation of the per-area modules, given this client's context. */
  #op<A extends unknown[], R>(operation: (ctx: ApiContext, ...args: A) => R): (...args: A) => R {
    return (...args) => operation(this.#ctx, ...args);
  }

  // Artifacts, relations, assets ----------------------------------------------------------

  readonly artifactCreate = this.#op(records.artifactCreate);
  readonly artifactGet = this.#op(records.artifactGet);
  /** An existing identical relation counts as success. */
  readonly relationCreate = this.#op(records.relationCreate);
  /** Exactly one of artifactId (relations from it) or targetId (relations to it). */
  readonly relationList = this.#op(records.relationList);
  readonly assetCreate = this.#op(records.assetCreate);
  readonly assetList = this.#op(records.assetList);
  readonly assetPermissionCheck = this.#op(records.assetPermissionCheck);

  // Collections and task configuration ----------------------------------------------------

  readonly collectionCreate = this.#op(collections.collectionCreate);
  readonly collectionGet = this.#op(collections.collectionGet);
  readonly collectionIter = this.#op(collections.collectionIter);
  readonly collectionUpdate = this.#op(collections.collectionUpdate);
  readonly collectionDelete = this.#op(collections.collectionDelete);
  readonly collectionItemIter = this.#op(collections.collectionItemIter);
  readonly collectionItemGet = this.#op(collections.collectionItemGet);
  readonly fetchTaskConfigurationCollection = this.#op(
    collections.fetchTaskConfigurationCollection,
  );
  readonly pushTaskConfigurationCollection = this.#op(collections.pushTaskConfigurationCollection);

  // Archives: suites' items, relations, viewer tokens ------------------------------------

  readonly collectionItemDelete = this.#op(archives.collectionItemDelete);
  readonly collectionRelationSet = this.#op(archives.collectionRelationSet);
  readonly collectionTokenIter = this.#op(archives.collectionTokenIter);
  readonly collectionTokenGrant = this.#op(archives.collectionTokenGrant);
  readonly collectionTokenRevoke = this.#op(archives.collectionTokenRevoke);
  /** A workflow with no template (the workspace's owners only). */
  readonly workflowCreateByTask = this.#op(archives.workflowCreateByTask);

  // The queue: counts per architecture, and the metrics text (both anonymous) -------------

  readonly serviceStatus = this.#op(queue.serviceStatus);
  readonly openMetrics = this.#op(queue.openMetrics);

  // Lookups --------------------------------------------------------------------------------

  readonly lookupSingle = this.#op(lookups.lookupSingle);
  readonly lookupMultiple = this.#op(lookups.lookupMultiple);

  // Work requests --------------------------------------------------------------------------

  readonly workRequestCreate = this.#op(wr.workRequestCreate);
  readonly workRequestGet = this.#op(wr.workRequestGet);
  /** Newest first, fetched page by page as the caller iterates. */
  readonly workRequestIter = this.#op(wr.workRequestIter);
  /** One page of the list, at a URL from workRequestPageUrl or a page's `next`. */
  readonly workRequestPage = this.#op(wr.workRequestPage);
  /** The URL of the list's first page with these filters (the server applies them, 0.13+). */
  readonly workRequestPageUrl = this.#op(wr.workRequestPageUrl);
  readonly workRequestRetry = this.#op(wr.workRequestRetry);
  readonly workRequestAbort = this.#op(wr.workRequestAbort);
  readonly workRequestUpdate = this.#op(wr.workRequestUpdate);
  readonly workRequestCompletedUpdate = this.#op(wr.workRequestCompletedUpdate);
  readonly workRequestExternalDebsignGet = this.#op(wr.workRequestExternalDebsignGet);
  readonly workRequestExternalDebsignComplete = this.#op(wr.workRequestExternalDebsignComplete);
  readonly workRequestExternalDebsignMayComplete = this.#op(
    wr.workRequestExternalDebsignMayComplete,
  );
  readonly workRequestUnblock = this.#op(wr.workRequestUnblock);
  readonly workRequestConfirm = this.#op(wr.workRequestConfirm);

  // Workflows and templates ----------------------------------------------------------------

  readonly workflowCreate = this.#op(workflows.workflowCreate);
  readonly workflowTemplateCreate = this.#op(workflows.workflowTemplateCreate);
  readonly workflowTemplateCreateLegacy = this.#op(workflows.workflowTemplateCreateLegacy);
  readonly workflowTemplateGet = this.#op(workflows.workflowTemplateGet);
  readonly workflowTemplateIter = this.#op(workflows.workflowTemplateIter);
  readonly workflowTemplateUpdate = this.#op(workflows.workflowTemplateUpdate);
  readonly workflowTemplateDelete = this.#op(workflows.workflowTemplateDelete);

  // Workspaces -----------------------------------------------------------------------------

  readonly getWorkspaceInheritance = this.#op(workspaces.getWorkspaceInheritance);
  readonly setWorkspaceInheritance = this.#op(workspaces.setWorkspaceInheritance);
}
