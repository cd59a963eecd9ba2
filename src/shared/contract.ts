/**
 * The bridge contract: every request the renderer may make of main (with a zod schema for
 * its arguments and the type of its result) and every event main sends. The preload's
 * `window.debusine`, main's handlers, the web host and the renderer's client are all typed
 * from this file; nothing restates it (contract-names.ts only lists the names, for the
 * zod-free preload, and the compiler keeps the two equal).
 */
import { z } from 'zod';
import type { SerializedError } from './errors';
import { workRequestRequestSchema } from './models';
import type { EventChannel, LocalMethod, RequestChannel } from './contract-names';
import type * as T from './contract-types';

export * from './contract-names';
export type * from './contract-types';

/** A request: its argument schema, and its result type as a phantom (never set). */
export interface RequestEntry<A extends z.ZodType, R> {
  readonly args: A;
  /** Wrapped in a tuple so that `undefined` results survive NonNullable. */
  readonly result?: [R];
}

function request<R>() {
  return <A extends z.ZodType>(args: A): RequestEntry<A, R> => ({ args });
}

// ---------------------------------------------------------------------------------------
// Argument schemas shared by several entries

const noArgs = z.strictObject({}).optional();
const id = z.number().int().positive();
const byId = z.strictObject({ id });
const serverId = z.string().min(1).max(200);
/** An OpenPGP key's fingerprint as gpg lists it: upper-case hex, v4 or v5. */
const fingerprint = z.string().regex(/^(?:[0-9A-F]{40}|[0-9A-F]{64})$/);
const workspace = z.string().min(1).max(200);
const name = z.string().min(1).max(500);
const jsonObject = z.record(z.string(), z.unknown());
const fileId = z.string().min(1).max(100);
const jobId = z.string().min(1).max(100);
const byJob = z.strictObject({ jobId });
const retention = z.number().int().nonnegative().nullable();
const logHandle = z.string().min(1).max(100);
const byHandle = z.strictObject({ handle: logHandle });
/**
 * The server profile a page of server data is on (its id): ids of artifacts and work
 * requests mean other things on another server, so main refuses a request naming any but
 * the active one.
 */
const pageServer = z.string().min(1).max(200);
const artifactPath = z.string().min(1).max(4096);
/** Suites, components and workspace suffixes: what Debusine and apt both take. */
const repositoryName = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9+._-]*$/, 'letters, digits and + . _ - only, not first');
const architecture = z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}$/);

const collectionFields = {
  name,
  category: name,
  full_history_retention_period: retention,
  metadata_only_retention_period: retention,
  data: jsonObject,
};
const collectionNew = z.strictObject({
  ...collectionFields,
  full_history_retention_period: retention.default(null),
  metadata_only_retention_period: retention.default(null),
});
// An update sends only what the user changed: no defaults here, or a field left out would
// be reset on the server (zod's partial() keeps defaults).
const collectionChange = z.strictObject(collectionFields).partial().extend({ id });
const templateNew = z.strictObject({
  name,
  task_name: name,
  // 0.13+ templates carry parameters instead of task_data (docs/debusine-server-facts.md);
  // both are accepted.
  task_data: jsonObject.optional(),
  static_parameters: jsonObject.optional(),
  // `any`, or per parameter `any` or the list of allowed values (as the server stores them).
  runtime_parameters: z
    .union([
      z.literal('any'),
      z.record(z.string(), z.union([z.literal('any'), z.array(z.unknown())])),
    ])
    .optional(),
  extra_groups: z.array(z.string()).optional(),
  restricted: z.boolean().optional(),
  priority: z.number().int().default(0),
});
const templateChange = templateNew
  .extend({ priority: z.number().int() })
  .omit({ task_name: true })
  .partial()
  .extend({ id });
const lookupRequest = {
  // Earlier servers (0.11) resolve for a work request (with its worker's token); current
  // ones resolve in a workspace (the server's default when null) and ignore work_request.
  work_request: id.nullable().default(null),
  workspace: workspace.nullable().default(null),
  expect_type: z.enum(['any', 'artifact', 'artifact-or-promise', 'bare', 'collection']),
  default_category: z.string().nullable().default(null),
};
const inheritanceElement = z
  .strictObject({
    id: id.nullable().optional(),
    scope: z.string().nullable().optional(),
    workspace: z.string().nullable().optional(),
  })
  .refine((e) => e.id != null || e.workspace != null, {
    message: 'An element needs an id or a workspace',
  });
const serverFields = {
  name: z.string().min(1).max(100),
  apiUrl: z.url({ protocol: /^https?$/ }),
  scope: z.string().min(1).max(200).nullable(),
  defaultWorkspace: workspace.nullable(),
};

// ---------------------------------------------------------------------------------------
// Requests

export const requests = {
  'app.info': request<T.AppInfo>()(noArgs),
  /** Opens an http(s) URL in the system browser. */
  'app.openExternal': request<undefined>()(
    z.strictObject({ url: z.url({ protocol: /^https?$/ }) }),
  ),

  'session.whoami': request<T.SessionInfo>()(noArgs),
  /** The token goes renderer → main once, and is stored there; it never comes back. */
  'session.signInWithToken': request<T.SessionInfo>()(
    z.strictObject({ serverId, token: z.string().min(8).max(500) }),
  ),
  'session.signOut': request<undefined>()(z.strictObject({ serverId })),

  'servers.list': request<T.ServerProfile[]>()(noArgs),
  'servers.active': request<T.ServerSummary | null>()(noArgs),
  'servers.add': request<T.ServerProfile>()(z.strictObject(serverFields)),
  'servers.update': request<T.ServerProfile>()(
    z
      .strictObject({ id: serverId, ...serverFields })
      .partial()
      .required({ id: true }),
  ),
  'servers.remove': request<undefined>()(z.strictObject({ id: serverId })),
  'servers.setActive': request<T.ServerSummary>()(z.strictObject({ id: serverId })),
  /** Checks a server (the active one by default): reachable, token accepted, as whom. */
  'servers.check': request<T.ServerCheck>()(z.strictObject({ id: serverId.optional() }).optional()),
  /** Reads the Debusine CLI's config.ini from its standard place; main picks the path. */
  'servers.importCliConfig': request<T.CliConfigImport>()(
    z.strictObject({ dryRun: z.boolean().default(false) }),
  ),
  /** Suggestions for first start: the CLI's servers, a running local sandbox, debusine.debian.net. */
  'servers.presets': request<T.ServerPreset[]>()(noArgs),
  /** Adds a preset as a profile (its token, if any, goes main-side into the token store). */
  'servers.addPreset': request<T.ServerProfile>()(
    z.strictObject({ presetId: z.string().min(1).max(300), makeActive: z.boolean().default(true) }),
  ),
  'servers.tokenStore': request<T.TokenStoreInfo>()(noArgs),

  'enroll.start': request<T.EnrollStarted>()(z.strictObject({ serverId })),
  'enroll.cancel': request<undefined>()(z.strictObject({ enrollId: z.string().min(1) })),

  'connection.get': request<T.ConnectionState>()(noArgs),

  'watch.list': request<T.WatchEntry[]>()(noArgs),
  'watch.add': request<T.WatchEntry>()(
    z.strictObject({ workRequestId: id, label: z.string().max(200).nullable().default(null) }),
  ),
  'watch.remove': request<undefined>()(z.strictObject({ workRequestId: id })),
  'notifications.getSettings': request<T.NotificationSettings>()(noArgs),
  /**
   * What notifies. The program run on completion is not among the fields: the bridge must
   * never be able to name a program for main to run (see notifications.chooseCommand).
   */
  'notifications.setSettings': request<T.NotificationSettings>()(
    z
      .strictObject({
        mode: z.enum(['watched', 'mine', 'workspace']),
        workspaces: z.array(workspace).max(100),
        failuresOnly: z.boolean(),
        snoozedUntil: z.iso.datetime({ offset: true }).nullable(),
      })
      .partial(),
  ),
  /**
   * Shows main's own file dialog and runs the program chosen there on each completion
   * (hosts with dialogs only; in the browser, the user edits the file named in the
   * settings). Cancelled: nothing changes.
   */
  'notifications.chooseCommand': request<T.NotificationSettings>()(noArgs),
  /** Stops running a program on completion (where the program is chosen in a dialog). */
  'notifications.removeCommand': request<T.NotificationSettings>()(noArgs),
  /** The last 100 notifications shown, newest first. */
  'notifications.recent': request<T.NotificationRecord[]>()(noArgs),
  /**
   * A `notification.desktop` the page showed was clicked (the web host): main does what the
   * click of its own notification would (opens the work request or the log, on the server
   * that showed it). `not-found` once main no longer keeps it.
   */
  'notifications.activate': request<undefined>()(
    z.strictObject({ key: z.string().min(1).max(300) }),
  ),

  'workRequests.list': request<T.WorkRequestResponse[]>()(
    z
      .strictObject({
        status: z.string().min(1).optional(),
        taskType: z.string().min(1).optional(),
        rootOnly: z.boolean().optional(),
        ids: z.array(id).max(500).optional(),
        /** Lists stop after this many items; the server has thousands. */
        limit: z.number().int().min(1).max(1000).default(50),
      })
      .optional(),
  ),
  /** Usernames by user id (`created_by`), as far as the server names them. */
  'users.names': request<Record<string, string>>()(
    z.strictObject({ ids: z.array(id).min(1).max(200) }),
  ),
  /** One page; pass the previous page's nextCursor (the other filters are then ignored). */
  'workRequests.page': request<T.WorkRequestPage>()(
    z
      .strictObject({
        cursor: z.string().min(1).max(200).nullable(),
        status: z.string().min(1),
        taskType: z.string().min(1),
        rootOnly: z.boolean(),
        ids: z.array(id).max(500),
      })
      .partial()
      .optional(),
  ),
  /** Running Wait steps asking for the user (externaldebsign, confirm) and blocked manual-unblock steps, newest first. */
  'workRequests.needsMe': request<T.WorkRequestResponse[]>()(noArgs),
  'workRequests.get': request<T.WorkRequestResponse>()(byId),
  'workRequests.create': request<T.WorkRequestResponse>()(workRequestRequestSchema),
  'workRequests.retry': request<T.WorkRequestResponse>()(byId),
  /**
   * Why a failed work request failed, in one line, with the log line that shows it; for a
   * workflow, its first failed step's. Null when its kind says nothing more than its result.
   */
  'workRequests.explainFailure': request<T.FailureReason | null>()(byId),
  /** Where a step stands in the server's queue and how long such steps usually take. */
  'queue.estimate': request<T.QueueEstimate>()(byId),
  /** The server's queue per architecture: its workers, and the work pending and running. */
  'queue.status': request<T.QueueStatus>()(noArgs),
  /** The user's watched work that cannot start: no worker of its architecture is connected. */
  'queue.stuck': request<T.QueueStuck>()(noArgs),
  'workRequests.abort': request<T.WorkRequestResponse>()(byId),
  'workRequests.setPriority': request<T.WorkRequestResponse>()(
    z.strictObject({ id, priorityAdjustment: z.number().int() }),
  ),
  'workRequests.unblock': request<T.WorkRequestResponse>()(
    z.strictObject({
      id,
      action: z.enum(['accept', 'reject']).optional(),
      notes: z.string().max(10_000).optional(),
    }),
  ),
  'workRequests.confirm': request<T.WorkRequestResponse>()(
    z.strictObject({ id, confirm: z.boolean().default(true), comment: z.string().optional() }),
  ),
  'workRequests.externalDebsignGet': request<T.WorkRequestResponse>()(byId),
  'workRequests.externalDebsignComplete': request<T.WorkRequestResponse>()(
    z.strictObject({ id, signedArtifactId: id }),
  ),

  'workflows.create': request<T.WorkRequestResponse>()(
    z.strictObject({
      template_name: name,
      workspace: workspace.nullable().default(null),
      task_data: jsonObject,
    }),
  ),
  'workflowTemplates.list': request<T.WorkflowTemplateData[]>()(z.strictObject({ workspace })),
  'workflowTemplates.get': request<T.WorkflowTemplateData>()(
    z.strictObject({ workspace, template: z.union([id, name]) }),
  ),
  'workflowTemplates.create': request<T.WorkflowTemplateData>()(
    z.strictObject({ workspace, template: templateNew }),
  ),
  'workflowTemplates.update': request<T.WorkflowTemplateData>()(
    z.strictObject({ workspace, template: templateChange }),
  ),
  'workflowTemplates.delete': request<undefined>()(
    z.strictObject({ workspace, template: z.union([id, name]) }),
  ),

  'artifacts.get': request<T.ArtifactResponse>()(byId),
  /** A lintian artifact's tags, read from its analysis.json by main (capped in size and count). */
  'results.lintianTags': request<T.LintianTags>()(z.strictObject({ artifactId: id })),
  'relations.list': request<T.RelationResponse[]>()(
    z.union([z.strictObject({ artifactId: id }), z.strictObject({ targetId: id })]),
  ),
  'relations.create': request<T.RelationResponse>()(
    z.strictObject({
      artifact: id,
      target: id,
      type: z.enum(['extends', 'relates-to', 'built-using']),
    }),
  ),

  'assets.list': request<T.AssetResponse[]>()(
    z.strictObject({ assetId: id, workRequest: id, workspace }).partial().optional(),
  ),
  'assets.create': request<T.AssetResponse>()(
    z.strictObject({
      category: name,
      data: jsonObject,
      work_request: id.nullable().default(null),
      workspace,
    }),
  ),
  'assets.checkPermission': request<T.AssetPermissionCheck>()(
    z.strictObject({
      assetCategory: name,
      assetSlug: name,
      permissionName: name,
      artifactId: id,
      workRequestId: id,
      workspace,
    }),
  ),

  'collections.list': request<T.CollectionData[]>()(z.strictObject({ workspace })),
  'collections.get': request<T.CollectionData>()(
    z.strictObject({ workspace, category: name, name }),
  ),
  'collections.create': request<T.CollectionData>()(
    z.strictObject({ workspace, collection: collectionNew }),
  ),
  'collections.update': request<T.CollectionData>()(
    z.strictObject({ workspace, collection: collectionChange }),
  ),
  'collections.delete': request<undefined>()(
    z.strictObject({ workspace, category: name, name, force: z.boolean().default(false) }),
  ),
  'collections.items': request<T.CollectionItemData[]>()(
    z.strictObject({
      workspace,
      category: name,
      name,
      limit: z.number().int().min(1).max(1000).default(100),
    }),
  ),

  /** The repositories the app knows on the active server (made here, or named by the user). */
  'repositories.list': request<T.RepositoryEntry[]>()(noArgs),
  /** The templates a repository can be made from in `workspace` (`developers`, usually). */
  'repositories.templates': request<T.RepositoryTemplate[]>()(z.strictObject({ workspace })),
  'repositories.create': request<T.RepositoryEntry>()(
    z.strictObject({
      workspace,
      template: name,
      suffix: repositoryName,
      public: z.boolean(),
    }),
  ),
  /** A repository made elsewhere (the command line, another machine). */
  'repositories.remember': request<T.RepositoryEntry>()(z.strictObject({ workspace })),
  'repositories.forget': request<undefined>()(z.strictObject({ workspace })),
  'repositories.suites': request<T.RepositorySuite[]>()(z.strictObject({ workspace })),
  /** As `debusine archive suite create`: the suite, and its template when given a base. */
  'repositories.addSuite': request<T.RepositorySuite>()(
    z.strictObject({
      workspace,
      suite: repositoryName,
      architectures: z.array(architecture).min(1).max(50),
      components: z.array(repositoryName).min(1).max(20).default(['main']),
      baseTemplate: name.nullable().default(null),
    }),
  ),
  'repositories.packages': request<T.RepositoryPackage[]>()(
    z.strictObject({
      workspace,
      suite: repositoryName,
      search: z.string().max(200).default(''),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
  ),
  /** Removes one item (a source takes its binaries with it); the server re-signs. */
  'repositories.removePackage': request<undefined>()(
    z.strictObject({ workspace, suite: repositoryName, name }),
  ),
  /** The suites of the user's repositories on the active server (as an upload offers them). */
  'repositories.targets': request<T.PublishTarget[]>()(noArgs),
  /**
   * As `debusine archive package copy --include-binaries` (with `--move`, then removed from
   * where it was): a package_publish workflow in the target's workspace.
   */
  'repositories.copyPackage': request<T.WorkRequestResponse>()(
    z.strictObject({
      from: z.strictObject({ workspace, suite: repositoryName }),
      to: z.strictObject({ workspace, suite: repositoryName }),
      source: repositoryName,
      version: z
        .string()
        .max(200)
        .regex(/^[0-9A-Za-z.+~:-]+$/, 'a Debian version: letters, digits and . + ~ : - only'),
      move: z.boolean().default(false),
      /** Allow a copy from a private repository to a public one. */
      unembargo: z.boolean().default(false),
    }),
  ),
  /**
   * Writes (or brings up to date) the dput-ng profile of a repository the app remembers, in
   * the user's ~/.dput.d: its suites, each published by its `publish-to-<suite>` template.
   */
  'repositories.dputProfile': request<T.RepositoryDputProfile>()(z.strictObject({ workspace })),
  'repositories.aptSetup': request<T.AptSetup>()(
    z.strictObject({ workspace, suite: repositoryName, withSources: z.boolean().default(false) }),
  ),
  /** Where the active server's archive is served; null: the default, deb.<API host>. */
  'repositories.setArchiveUrl': request<undefined>()(
    z.strictObject({
      url: z
        .url({ protocol: /^https?$/ })
        .max(500)
        .nullable(),
    }),
  ),
  'repositories.tokens': request<T.ViewerToken[]>()(
    z.strictObject({ workspace, suite: repositoryName.nullable().default(null) }),
  ),
  'repositories.grantToken': request<T.GrantedViewerToken>()(
    z.strictObject({
      workspace,
      suite: repositoryName.nullable().default(null),
      username: z.string().regex(/^[A-Za-z0-9@.+_-]{1,150}$/),
      comment: z.string().max(200).default(''),
    }),
  ),
  'repositories.revokeToken': request<undefined>()(
    z.strictObject({
      workspace,
      suite: repositoryName.nullable().default(null),
      tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),

  'taskConfig.fetch': request<T.TaskConfigurationContents>()(z.strictObject({ workspace, name })),
  'taskConfig.push': request<T.TaskConfigurationUpdateResults>()(
    z.strictObject({
      workspace,
      name,
      items: z.array(jsonObject),
      dryRun: z.boolean().default(false),
    }),
  ),

  'lookups.single': request<T.LookupResult>()(
    z.strictObject({ lookup: z.union([id, z.string().min(1)]), ...lookupRequest }),
  ),
  'lookups.multiple': request<T.LookupResult[]>()(
    z.strictObject({
      lookup: z.array(z.union([id, z.string().min(1), jsonObject])),
      ...lookupRequest,
    }),
  ),

  'workspaces.getInheritance': request<T.WorkspaceInheritanceChain>()(
    z.strictObject({ workspace }),
  ),
  'workspaces.setInheritance': request<T.WorkspaceInheritanceChain>()(
    z.strictObject({ workspace, chain: z.array(inheritanceElement) }),
  ),

  /**
   * The web UI address of a path under the active scope, for the page of `server` (a
   * server profile): main refuses it when another server is active, so that an address is
   * never one server's under another's page.
   */
  'links.webui': request<string>()(
    z.strictObject({ server: serverId, path: z.string().max(2000) }),
  ),
  /**
   * Opens what a pasted address names (a Debusine web page of a work request or an
   * artifact, or one of the app's own links) on the server it names, as a deep link does:
   * a known server is made active first; an unknown one opens nothing, and says why.
   */
  'links.open': request<T.LinkOutcome>()(z.strictObject({ text: z.string().min(1).max(8192) })),

  /**
   * Files to upload, chosen by the user: in main's open dialog (Electron), or in the
   * browser's file chooser, which the page answers itself (web-host-api.ts). A chosen
   * folder stands for its files, as a dropped one does. They come back as ids, never as
   * paths.
   */
  'files.pick': request<T.StagedFile[]>()(
    z.strictObject({
      multiple: z.boolean().default(true),
      folder: z.boolean().default(false),
      title: z.string().max(200).optional(),
    }),
  ),
  'files.release': request<undefined>()(z.strictObject({ ids: z.array(fileId).max(10_000) })),

  'localArtifacts.detect': request<T.LocalArtifactDraft[]>()(
    z.strictObject({
      fileIds: z.array(fileId).min(1).max(10_000),
      allowRemote: z.boolean().default(false),
    }),
  ),
  /** Changes a draft's kind, excluded files or allowRemote, and validates it again. */
  'localArtifacts.update': request<T.LocalArtifactDraft>()(
    z.strictObject({
      draftId: z.string().min(1).max(100),
      kind: z.string().min(1).max(100).optional(),
      excludeFiles: z.array(fileId).max(10_000).optional(),
      allowRemote: z.boolean().optional(),
    }),
  ),
  'localArtifacts.discard': request<undefined>()(
    z.strictObject({ draftId: z.string().min(1).max(100) }),
  ),
  /** The drafts this page made and still holds, oldest first (a reload holds none). */
  'localArtifacts.list': request<T.LocalArtifactDraft[]>()(noArgs),
  /** The kinds a draft can be set to. */
  'localArtifacts.kinds': request<T.ArtifactKindInfo[]>()(noArgs),
  'uploads.start': request<T.UploadJob>()(
    z.strictObject({
      draftId: z.string().min(1),
      workspace: workspace.nullable().default(null),
      workRequest: id.nullable().default(null),
      expireAt: z.iso.datetime({ offset: true }).nullable().default(null),
      /** Start the draft's proposed workflow once the upload is complete, as dput does. */
      startWorkflow: z.boolean().default(false),
      /**
       * Publish to this suite of the user's instead: upload to its repository and start its
       * `publish-to-<suite>` template there (one of the proposal's targets).
       */
      publishTo: z.strictObject({ workspace, suite: repositoryName }).nullable().default(null),
    }),
  ),
  'uploads.list': request<T.UploadJob[]>()(noArgs),
  /** Whether a .changes' dput workflow is offered (a button) or always started. */
  'uploads.getSettings': request<T.UploadSettings>()(noArgs),
  'uploads.setSettings': request<T.UploadSettings>()(
    z.strictObject({ dputWorkflow: z.enum(['offer', 'always']) }),
  ),
  'uploads.pause': request<T.UploadJob>()(byJob),
  'uploads.resume': request<T.UploadJob>()(byJob),
  /** Stops the upload and discards the job (the server's partial artifact expires). */
  'uploads.cancel': request<T.UploadJob>()(byJob),
  /** Starts a failed job again, from what the server already has. */
  'uploads.retry': request<T.UploadJob>()(byJob),

  /**
   * Saves an artifact of the page's server, or files of it, each host its own way
   * (app.info's `saveDownload`). Main asks where in its own dialog, then downloads there,
   * verified, reporting through download.progress and download.finished until done or
   * cancelled (downloads.cancel). In a browser the page answers it: it hands a one-time link
   * (downloads.link) to the browser's own download. `file`: one file of the artifact;
   * `tarball`: the artifact as its .tar.gz; `folder`: whole artifacts unpacked in one folder
   * (main's dialog only). Null when the user closed the dialog.
   */
  'downloads.save': request<T.SavedDownload | null>()(
    z.discriminatedUnion('what', [
      z.strictObject({
        what: z.literal('file'),
        server: pageServer,
        artifactId: id,
        path: artifactPath,
      }),
      z.strictObject({ what: z.literal('tarball'), server: pageServer, artifactId: id }),
      z.strictObject({
        what: z.literal('folder'),
        server: pageServer,
        artifactIds: z.array(id).min(1).max(1000),
      }),
    ]),
  ),
  /**
   * Web host: a one-time same-origin URL streaming one file (path) or the artifact's
   * tarball (no path) through main, for an <a download>. Electron answers `unsupported`.
   */
  'downloads.link': request<T.DownloadLink>()(
    z.strictObject({ server: pageServer, artifactId: id, path: artifactPath.optional() }),
  ),
  /**
   * Stops a download of downloads.save: its destination is left as it was,
   * and `download.finished` reports it `cancelled`. A job no longer running: `not-found`.
   */
  'downloads.cancel': request<T.DownloadJob>()(byJob),

  /**
   * Opens a text file of an artifact in main (downloaded once, verified, cached) and hands
   * back a handle; it resolves as soon as the file starts arriving, and `logs.progress`
   * follows it. The analysis (sbuild logs) comes with the state once it is `ready`.
   */
  'logs.open': request<T.LogState>()(
    z.strictObject({
      /** The server profile the log's page is on: main refuses it on any other. */
      server: z.string().min(1).max(200),
      artifactId: id,
      path: z.string().min(1).max(4096),
    }),
  ),
  /**
   * Follows the live log of a running step of the active server (Debusine 0.16 and later,
   * public workspaces) into main, behind a handle that logs.lines, logs.search, logs.info,
   * logs.cancel (stop following) and logs.close take as a stored log's; `logs.progress`
   * tells its growth and its end (`live.status`). A server that will not stream it ends it
   * at once as `refused`, with one line saying why.
   */
  'logs.openLive': request<T.LogState>()(
    z.strictObject({
      /** The server profile the step's page is on: main refuses it on any other. */
      server: z.string().min(1).max(200),
      workRequestId: id,
    }),
  ),
  'logs.info': request<T.LogState>()(byHandle),
  /** A window of lines as plain text (at most 2000, and 2 MiB of text; long lines cut). */
  'logs.lines': request<T.LogWindow>()(
    z.strictObject({
      handle: logHandle,
      from: z.number().int().nonnegative(),
      count: z.number().int().min(1).max(2000),
    }),
  ),
  /**
   * Searches the whole file in main: the count, and the next or previous matching line.
   * `until: 'found'` answers a search forwards as soon as its line is found (`counted`
   * false while main goes on counting); `counted`, the default, waits for the count.
   */
  'logs.search': request<T.LogSearchResult>()(
    z.strictObject({
      handle: logHandle,
      query: z.string().min(1).max(1000),
      regex: z.boolean().default(false),
      caseSensitive: z.boolean().default(false),
      fromLine: z.number().int().nonnegative().default(0),
      direction: z.enum(['next', 'previous']).default('next'),
      until: z.enum(['found', 'counted']).default('counted'),
    }),
  ),
  'logs.close': request<undefined>()(byHandle),
  /**
   * Stops the download of an open log that is still arriving (for every handle on that
   * file): its state becomes `failed` with a `cancelled` error, and nothing of it is kept
   * in the cache; opening it again downloads it again. A log already complete is unchanged.
   */
  'logs.cancel': request<T.LogState>()(byHandle),

  /** Whether debsign (devscripts) and gpg are installed where main runs. */
  'signing.available': request<T.SigningAvailability>()(noArgs),
  /**
   * The key `signing.signAndComplete` would sign a waiting externaldebsign step's upload
   * with when given none, chosen by the same code on the same inputs (the step's .changes,
   * fetched and checked as for signing, the secret keys, the devscripts files), and why;
   * with every secret key, for signing with another. `serverId` as for signing.
   */
  'signing.keyChoice': request<T.SigningKeyChoice>()(
    z.strictObject({ workRequestId: id, serverId: serverId.optional() }),
  ),
  /**
   * Signs a waiting externaldebsign step's upload with the user's key (debsign), uploads it
   * and completes the step, as `debusine work-request sign` does. `serverId`: the server
   * the step was shown for (default: the active one). `key`: the fingerprint of one of the
   * listed secret keys (main refuses any other); without it, the key is the one debsign
   * would use (`signing.keyChoice`), or the answer asks the user to choose. `expected`:
   * the fingerprint the page showed as that key; if the choice now names another (the keys
   * or the devscripts files changed since), nothing is signed (`conflict`). `reviewed`: the
   * digest of the review (`signing.keyChoice`) the user saw and confirmed; an upload that
   * is not one this app made as it is signs only with the digest of its review as it is
   * now, and without it the answer is `review` and nothing is signed.
   */
  'signing.signAndComplete': request<T.SigningResult>()(
    z.strictObject({
      workRequestId: id,
      serverId: serverId.optional(),
      key: fingerprint.optional(),
      expected: fingerprint.optional(),
      reviewed: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
  ),
} satisfies Record<RequestChannel, RequestEntry<z.ZodType, unknown>>;

// ---------------------------------------------------------------------------------------
// Types derived from the tables

type Requests = typeof requests;

/** What a caller passes (defaults not yet applied). */
export type RequestArgs<C extends RequestChannel> = z.input<Requests[C]['args']>;
/** What a handler receives, after the schema parsed it. */
export type RequestParsed<C extends RequestChannel> = z.output<Requests[C]['args']>;
export type RequestResult<C extends RequestChannel> = NonNullable<Requests[C]['result']>[0];

export type EventPayload<E extends EventChannel> = T.EventPayloads[E];

/** Compile-time proof that every event name has a payload type and no payload lacks a name. */
type EventsMatch = [EventChannel] extends [keyof T.EventPayloads]
  ? [keyof T.EventPayloads] extends [EventChannel]
    ? true
    : false
  : false;
export const EVENTS_MATCH: EventsMatch = true;

/** A reply as it crosses a transport: errors are data, never thrown objects. */
export type Reply<R> = { ok: true; result: R } | { ok: false; error: SerializedError };

/** The file objects the renderer passes to `files.stageDropped` (DOM `File`s). */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
}

type ArgList<C extends RequestChannel> =
  undefined extends RequestArgs<C> ? [args?: RequestArgs<C>] : [args: RequestArgs<C>];

type Namespace = RequestChannel extends `${infer N}.${string}` ? N : never;
type MethodsOf<N extends string, Wrap extends 'reply' | 'value'> = {
  [C in RequestChannel as C extends `${N}.${infer M}` ? M : never]: (
    ...args: ArgList<C>
  ) => Promise<Wrap extends 'reply' ? Reply<RequestResult<C>> : RequestResult<C>>;
};

export type Unsubscribe = () => void;
export type EventListener<E extends EventChannel> = (payload: EventPayload<E>) => void;

interface LocalMethods<Wrap extends 'reply' | 'value'> {
  files: {
    stageDropped: (
      files: readonly DroppedFile[],
    ) => Promise<Wrap extends 'reply' ? Reply<T.StagedFile[]> : T.StagedFile[]>;
  };
}
// Keeps LOCAL_METHODS (the runtime list) and LocalMethods (the types) in step.
export const LOCAL_METHODS_MATCH: LocalMethod extends 'files.stageDropped' ? true : false = true;

type Api<Wrap extends 'reply' | 'value'> = {
  [N in Namespace]: MethodsOf<N, Wrap> &
    (N extends keyof LocalMethods<Wrap> ? LocalMethods<Wrap>[N] : unknown);
} & {
  /** Subscribes to one contract event; returns the unsubscribe function. */
  on<E extends EventChannel>(event: E, listener: EventListener<E>): Unsubscribe;
};

/**
 * `window.debusine` (the preload) and the web host's client: one method per request,
 * answering with a Reply, since an Error object does not survive contextBridge intact.
 */
export type DebusineApi = Api<'reply'>;

/** The renderer's client: the same methods, resolving to results or throwing DebusineError. */
export type BridgeClient = Api<'value'>;

// ---------------------------------------------------------------------------------------
// Messages of the message-based transports (the web host's WebSocket, the in-memory pair)

export type ClientMessage =
  | { type: 'request'; id: number; channel: string; args: unknown }
  /** The renderer has subscribed: main may flush the events it kept. */
  | { type: 'ready' };

export type ServerMessage =
  | { type: 'reply'; id: number; reply: Reply<unknown> }
  | { type: 'event'; event: EventChannel; payload: unknown };
