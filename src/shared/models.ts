/**
 * zod schemas for the resources Debusine's API sends and takes, with what real servers do
 * (docs/debusine-server-facts.md). TypeScript types are inferred from them.
 *
 * Response schemas are loose: fields newer servers add are kept, and fields older servers
 * lack (url, scope, links, content_type) are optional. Request schemas are strict: a value
 * of the wrong type, or an unknown field where the server would refuse it, is refused here.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------
// Links

export const linkSchema = z.looseObject({
  href: z.string(),
  type: z.string().nullable().optional(),
});
export type Link = z.infer<typeof linkSchema>;

/** A link whose only set field is `href` may be a plain string. */
export const linksSchema = z.record(z.string(), z.union([z.string(), linkSchema])).default({});
export type Links = z.infer<typeof linksSchema>;

export function linkHref(link: string | Link | undefined): string | undefined {
  if (link === undefined) return undefined;
  return typeof link === 'string' ? link : link.href;
}

/** Servers send ISO-8601 strings; they stay strings here, and the UI formats them. */
export const datetimeSchema = z.string();

// ---------------------------------------------------------------------------------------
// Identity

/** `GET /whoami/`: 0.16 `{user, auth, work_request, worker}`, 0.11 `{user, auth, worker_token}`. */
export const whoamiSchema = z.looseObject({
  user: z.string(),
  auth: z.boolean(),
  work_request: z.number().int().nullable().optional(),
  worker: z.boolean().optional(),
  worker_token: z.boolean().optional(),
});
export type Whoami = z.infer<typeof whoamiSchema>;

// ---------------------------------------------------------------------------------------
// Pagination

/** Page/count form (`count`) and cursor form (no `count`) alike. */
export function paginatedSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    count: z.number().int().nullable().optional(),
    next: z.string().nullable().optional(),
    previous: z.string().nullable().optional(),
    results: z.array(item),
  });
}

// ---------------------------------------------------------------------------------------
// Work requests

/**
 * Status and result values of real servers (docs/debusine-server-facts.md). They are kept
 * open strings in responses, so that a newer server's value does not break parsing; these
 * lists drive the UI's filters and labels.
 */
export const WORK_REQUEST_STATUSES = [
  'pending',
  'running',
  'completed',
  'aborted',
  'blocked',
] as const;
export type WorkRequestStatus = (typeof WORK_REQUEST_STATUSES)[number];

export const WORK_REQUEST_RESULTS = [
  '',
  'success',
  'failure',
  'error',
  'skipped',
  'temporary failure',
] as const;
export type WorkRequestResult = (typeof WORK_REQUEST_RESULTS)[number];

export const TASK_TYPES = ['Worker', 'Server', 'Internal', 'Workflow', 'Signing', 'Wait'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const workRequestRequestSchema = z.strictObject({
  task_name: z.string().min(1),
  workspace: z.string().nullable().default(null),
  task_data: z.record(z.string(), z.unknown()),
  event_reactions: z.record(z.string(), z.unknown()),
});
export type WorkRequestRequest = z.input<typeof workRequestRequestSchema>;

export const workRequestResponseSchema = z.looseObject({
  id: z.number().int(),
  url: z.string().optional(),
  created_at: datetimeSchema,
  started_at: datetimeSchema.nullable().default(null),
  completed_at: datetimeSchema.nullable().default(null),
  /** Seconds; real servers send a float although earlier Debusine clients declare an integer. */
  duration: z.number().nullable().default(null),
  status: z.string(),
  result: z.string(),
  worker: z.number().int().nullable().default(null),
  task_type: z.string(),
  task_name: z.string(),
  task_data: z.record(z.string(), z.unknown()),
  dynamic_task_data: z.record(z.string(), z.unknown()).nullable().default(null),
  priority_base: z.number().int(),
  priority_adjustment: z.number().int(),
  artifacts: z.array(z.number().int()),
  scope: z.string().nullable().default(null),
  workspace: z.string(),
  created_by: z.number().int().nullable().optional(),
  parent: z.number().int().nullable().optional(),
  workflow_root: z.number().int().nullable().optional(),
  links: linksSchema,
});
export type WorkRequestResponse = z.infer<typeof workRequestResponseSchema>;

/** `PATCH /work-request/{id}/`: the only field a server accepts there. */
export const workRequestUpdateRequestSchema = z.strictObject({
  priority_adjustment: z.number().int(),
});

/** Completion update sent by workers; the earliest revision sends only `result`. */
export const workRequestCompletedRequestSchema = z.strictObject({
  result: z.string().min(1),
  output_data: z.record(z.string(), z.unknown()).optional(),
});
export type WorkRequestCompletedRequest = z.input<typeof workRequestCompletedRequestSchema>;

export const workRequestExternalDebsignRequestSchema = z.strictObject({
  signed_artifact: z.number().int(),
});
export type WorkRequestExternalDebsignRequest = z.input<
  typeof workRequestExternalDebsignRequestSchema
>;

/** `POST /work-request/{id}/unblock/`: a note, an action, or both. */
export const workRequestUnblockRequestSchema = z
  .strictObject({
    notes: z.string().optional(),
    action: z.enum(['accept', 'reject']).optional(),
  })
  .refine((v) => v.notes !== undefined || v.action !== undefined, {
    message: 'give notes, an action, or both',
  });
export type WorkRequestUnblockRequest = z.input<typeof workRequestUnblockRequestSchema>;

export const workRequestConfirmRequestSchema = z.strictObject({
  confirm: z.boolean().default(true),
  comment: z.string().optional(),
});
export type WorkRequestConfirmRequest = z.input<typeof workRequestConfirmRequestSchema>;

/** The completion event (websocket). Real servers send no `links` here. */
export const onWorkRequestCompletedSchema = z.looseObject({
  work_request_id: z.number().int(),
  completed_at: datetimeSchema,
  result: z.string(),
  links: linksSchema,
});
export type OnWorkRequestCompleted = z.infer<typeof onWorkRequestCompletedSchema>;

// ---------------------------------------------------------------------------------------
// Files and artifacts

const checksumsSchema = z.record(z.string(), z.string().max(255));

export const fileRequestSchema = z.strictObject({
  size: z.number().int().nonnegative(),
  checksums: checksumsSchema,
  type: z.literal('file'),
  content_type: z.string().nullable().optional(),
});
export type FileRequest = z.input<typeof fileRequestSchema>;

export const fileResponseSchema = z.looseObject({
  size: z.number().int().nonnegative(),
  checksums: checksumsSchema,
  type: z.literal('file'),
  url: z.string(),
  content_type: z.string().nullable().optional(),
  links: linksSchema,
});
export type FileResponse = z.infer<typeof fileResponseSchema>;

export const objectSchema = z.record(z.string(), z.unknown());

export const artifactCreateRequestSchema = z.strictObject({
  category: z.string().min(1).max(255),
  workspace: z.string().nullable().default(null),
  files: z.record(z.string(), fileRequestSchema).default({}),
  data: objectSchema.default({}),
  work_request: z.number().int().nullable().default(null),
  expire_at: datetimeSchema.nullable().default(null),
});
export type ArtifactCreateRequest = z.input<typeof artifactCreateRequestSchema>;

/**
 * The most files an artifact record may list. A source package is a handful of files and
 * the largest real artifacts (a build's binaries and logs, a set of installer images) a few
 * thousand; 40,000 is ten times beyond any of them. The bound is on memory: reading a
 * record costs about 2.5 KB a file at its peak (the entry as read, as parsed and as
 * checked), so 40,000 files take about 110 MB, where a million took 1.8 GB.
 */
export const MAX_ARTIFACT_FILES = 40_000;

/**
 * Refuses a record with too many files before any of them is checked: otherwise each of a
 * million entries would be validated and copied before the artifact is refused.
 */
function refuseTooManyFiles(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const { id, files } = value as { id?: unknown; files?: unknown };
  if (typeof files !== 'object' || files === null) return value;
  const count = Object.keys(files).length;
  if (count > MAX_ARTIFACT_FILES) {
    const which = typeof id === 'number' ? `Artifact ${String(id)}` : 'The artifact';
    ctx.addIssue({
      code: 'custom',
      path: ['files'],
      message: `${which} lists ${String(count)} files; at most ${String(MAX_ARTIFACT_FILES)} are accepted`,
    });
  }
  return value;
}

const artifactRecordSchema = z.looseObject({
  id: z.number().int(),
  url: z.string().optional(),
  scope: z.string().optional(),
  workspace: z.string(),
  category: z.string(),
  created_at: datetimeSchema,
  data: objectSchema,
  download_tar_gz_url: z.string(),
  files_to_upload: z.array(z.string()),
  expire_at: datetimeSchema.nullable().default(null),
  files: z.record(z.string(), fileResponseSchema).default({}),
  links: linksSchema,
});

export const artifactResponseSchema = z.preprocess(refuseTooManyFiles, artifactRecordSchema);
export type ArtifactResponse = z.infer<typeof artifactResponseSchema>;

export const remoteArtifactSchema = z.looseObject({
  id: z.number().int(),
  url: z.string().optional(),
  workspace: z.string(),
  links: linksSchema,
});
export type RemoteArtifact = z.infer<typeof remoteArtifactSchema>;

// ---------------------------------------------------------------------------------------
// Relations

export const RELATION_TYPES = ['extends', 'relates-to', 'built-using'] as const;
export const relationTypeSchema = z.enum(RELATION_TYPES);
export type RelationType = z.infer<typeof relationTypeSchema>;

export const relationCreateRequestSchema = z.strictObject({
  artifact: z.number().int(),
  target: z.number().int(),
  type: relationTypeSchema,
});
export type RelationCreateRequest = z.input<typeof relationCreateRequestSchema>;

export const relationResponseSchema = z.looseObject({
  id: z.number().int(),
  artifact: z.number().int(),
  target: z.number().int(),
  type: relationTypeSchema,
  links: linksSchema,
});
export type RelationResponse = z.infer<typeof relationResponseSchema>;
export const relationsResponseSchema = z.array(relationResponseSchema);

// ---------------------------------------------------------------------------------------
// Assets

export const assetCreateRequestSchema = z.strictObject({
  category: z.string().min(1),
  data: objectSchema,
  work_request: z.number().int().nullable().default(null),
  workspace: z.string().min(1),
});
export type AssetCreateRequest = z.input<typeof assetCreateRequestSchema>;

export const assetResponseSchema = z.looseObject({
  id: z.number().int(),
  category: z.string(),
  data: objectSchema,
  work_request: z.number().int().nullable().default(null),
  workspace: z.string(),
  links: linksSchema,
});
export type AssetResponse = z.infer<typeof assetResponseSchema>;
export const assetsResponseSchema = z.array(assetResponseSchema);

export const assetPermissionCheckRequestSchema = z.strictObject({
  asset_category: z.string().min(1),
  asset_slug: z.string().min(1),
  permission_name: z.string().min(1),
  artifact_id: z.number().int(),
  work_request_id: z.number().int(),
  workspace: z.string().min(1),
});
export type AssetPermissionCheckRequest = z.input<typeof assetPermissionCheckRequestSchema>;

export const assetPermissionCheckResponseSchema = z.looseObject({
  has_permission: z.boolean(),
  username: z.string().nullable().default(null),
  user_id: z.number().int().nullable().default(null),
  resource: objectSchema.nullable().default(null),
  links: linksSchema,
});
export type AssetPermissionCheckResponse = z.infer<typeof assetPermissionCheckResponseSchema>;

// ---------------------------------------------------------------------------------------
// Collections

const retentionSchema = z.number().int().nullable().default(null);

export const collectionDataNewSchema = z.strictObject({
  name: z.string().min(1),
  category: z.string().min(1),
  full_history_retention_period: retentionSchema,
  metadata_only_retention_period: retentionSchema,
  data: objectSchema,
});
export type CollectionDataNew = z.input<typeof collectionDataNewSchema>;

/**
 * Update: the id names the collection; every other field is optional (PATCH) and has no
 * default, so that a field left out is not sent (and not reset on the server).
 */
export const collectionUpdateRequestSchema = z
  .strictObject({
    name: z.string().min(1),
    category: z.string().min(1),
    full_history_retention_period: z.number().int().nullable(),
    metadata_only_retention_period: z.number().int().nullable(),
    data: objectSchema,
  })
  .partial()
  .extend({ id: z.number().int() });
export type CollectionUpdateRequest = z.input<typeof collectionUpdateRequestSchema>;

export const collectionDataSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  category: z.string(),
  full_history_retention_period: retentionSchema,
  metadata_only_retention_period: retentionSchema,
  data: objectSchema,
  links: linksSchema,
});
export type CollectionData = z.infer<typeof collectionDataSchema>;

export const collectionItemSchema = z.looseObject({
  name: z.string(),
  category: z.string(),
  data: objectSchema,
  links: linksSchema,
});
export type CollectionItem = z.infer<typeof collectionItemSchema>;

/**
 * A role granted on a collection to a token (a private archive's viewers). The key is in
 * the answer to the grant only; lists carry it empty or not at all.
 */
export const collectionTokenGrantSchema = z.looseObject({
  token_type: z.string().optional(),
  token_hash: z.string().regex(/^[0-9a-f]{64}$/),
  token_key: z.string().nullish(),
  username: z.string().nullish(),
  comment: z.string().nullish(),
  role: z.string(),
});
export type CollectionTokenGrant = z.infer<typeof collectionTokenGrantSchema>;

export const collectionTokenGrantRequestSchema = z.union([
  z.strictObject({
    role: z.literal('viewer'),
    username: z.string().min(1).max(150),
    comment: z.string().max(200).default(''),
  }),
  z.strictObject({
    role: z.literal('viewer'),
    token_hash: z.string().regex(/^[0-9a-f]{64}$/),
    comment: z.string().max(200).default(''),
  }),
]);
export type CollectionTokenGrantRequest = z.input<typeof collectionTokenGrantRequestSchema>;

// ---------------------------------------------------------------------------------------
// Task configuration collections

export const taskConfigurationCollectionSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  data: objectSchema,
  links: linksSchema,
});
export type TaskConfigurationCollection = z.infer<typeof taskConfigurationCollectionSchema>;

export const taskConfigurationCollectionContentsSchema = z.looseObject({
  collection: taskConfigurationCollectionSchema,
  items: z.array(objectSchema),
  links: linksSchema,
});
export type TaskConfigurationCollectionContents = z.infer<
  typeof taskConfigurationCollectionContentsSchema
>;

/** What a push sends: the local repository's manifest collection and its items. */
export const taskConfigurationPushRequestSchema = z.strictObject({
  collection: z.looseObject({ id: z.number().int(), name: z.string(), data: objectSchema }),
  items: z.array(objectSchema),
});
export type TaskConfigurationPushRequest = z.input<typeof taskConfigurationPushRequestSchema>;

export const taskConfigurationCollectionUpdateResultsSchema = z.looseObject({
  added: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
  links: linksSchema,
});
export type TaskConfigurationCollectionUpdateResults = z.infer<
  typeof taskConfigurationCollectionUpdateResultsSchema
>;

// ---------------------------------------------------------------------------------------
// Lookups

export const LOOKUP_CHILD_TYPES = [
  'any',
  'artifact',
  'artifact-or-promise',
  'bare',
  'collection',
] as const;
/** Current names, and the earlier revision's collection item types (`a`, `b`, `c`). */
export const lookupChildTypeSchema = z.enum([...LOOKUP_CHILD_TYPES, 'a', 'b', 'c']);
export type LookupChildType = z.infer<typeof lookupChildTypeSchema>;

const lookupRequestBase = {
  /** Required by earlier servers (the worker's work request); current servers ignore it. */
  work_request: z.number().int().nullable().default(null),
  /** Current servers resolve in this workspace (default: the server's default workspace). */
  workspace: z.string().nullable().default(null),
  /** Current servers resolve `internal@…` lookups in this workflow's internal collection. */
  workflow_root: z.number().int().nullable().default(null),
  expect_type: lookupChildTypeSchema,
  default_category: z.string().nullable().default(null),
};
export const lookupSingleRequestSchema = z.strictObject({
  lookup: z.union([z.number().int(), z.string()]),
  ...lookupRequestBase,
});
export type LookupSingleRequest = z.input<typeof lookupSingleRequestSchema>;

export const lookupMultipleRequestSchema = z.strictObject({
  lookup: z.array(z.union([z.number().int(), z.string(), objectSchema])),
  ...lookupRequestBase,
});
export type LookupMultipleRequest = z.input<typeof lookupMultipleRequestSchema>;

/** Lookup result types: the letters of earlier servers, and the words 0.13+ servers send. */
export type LookupResultType = 'a' | 'b' | 'c';
const RESULT_TYPE_LETTERS: Record<string, LookupResultType> = {
  a: 'a',
  b: 'b',
  c: 'c',
  artifact: 'a',
  bare: 'b',
  collection: 'c',
};

/**
 * One lookup result, normalised: `result_type` is always a letter (`a`, `b`, `c`),
 * `raw_result_type` what the server sent. `collection_item` is an id on earlier servers and
 * an object `{name, category, data}` on current ones; both are kept as sent.
 */
export const lookupSingleResponseSchema = z
  .looseObject({
    result_type: z.string().refine((v) => v in RESULT_TYPE_LETTERS, 'unknown result type'),
    collection_item: z.union([z.number().int(), objectSchema]).nullable().default(null),
    artifact: z.number().int().nullable().default(null),
    collection: z.number().int().nullable().default(null),
    links: linksSchema,
  })
  .transform((v) => ({
    ...v,
    raw_result_type: v.result_type,
    result_type: RESULT_TYPE_LETTERS[v.result_type] ?? 'b',
  }));
export type LookupSingleResponse = z.infer<typeof lookupSingleResponseSchema>;
export const lookupMultipleResponseSchema = z.array(lookupSingleResponseSchema);

// ---------------------------------------------------------------------------------------
// Workflows and workflow templates

export const createWorkflowRequestSchema = z.strictObject({
  template_name: z.string().min(1),
  workspace: z.string().nullable().default(null),
  task_data: objectSchema,
});
export type CreateWorkflowRequest = z.input<typeof createWorkflowRequestSchema>;

const runtimeParametersSchema = z.union([
  z.literal('any'),
  z.record(z.string(), z.union([z.literal('any'), z.array(z.unknown())])),
]);

/**
 * A template as earlier servers and the bridge have it (`task_data`), plus the fields 0.13+
 * servers use instead (`static_parameters`, `runtime_parameters`) and their other options.
 */
export const workflowTemplateDataNewSchema = z.strictObject({
  name: z.string().min(1),
  task_name: z.string().min(1),
  task_data: objectSchema.default({}),
  priority: z.number().int().default(0),
  static_parameters: objectSchema.optional(),
  runtime_parameters: runtimeParametersSchema.optional(),
  extra_groups: z.array(z.union([z.string(), z.number().int()])).optional(),
  restricted: z.boolean().optional(),
});
export type WorkflowTemplateDataNew = z.input<typeof workflowTemplateDataNewSchema>;

/** Update (PATCH): only the fields given are sent; none has a default here. */
export const workflowTemplateUpdateRequestSchema = workflowTemplateDataNewSchema
  .extend({ task_data: objectSchema, priority: z.number().int() })
  .omit({ task_name: true })
  .partial()
  .extend({ id: z.number().int() });
export type WorkflowTemplateUpdateRequest = z.input<typeof workflowTemplateUpdateRequestSchema>;

/** Normalised: `task_data` is the static parameters on servers that have them. */
export const workflowTemplateDataSchema = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    task_name: z.string(),
    task_data: objectSchema.optional(),
    static_parameters: objectSchema.optional(),
    runtime_parameters: runtimeParametersSchema.optional(),
    priority: z.number().int(),
    workspace: z.string().nullable().optional(),
    url: z.string().optional(),
    links: linksSchema,
  })
  .transform((v) => ({ ...v, task_data: v.task_data ?? v.static_parameters ?? {} }));
export type WorkflowTemplateData = z.infer<typeof workflowTemplateDataSchema>;

export const workflowTemplateRequestSchema = z.strictObject({
  name: z.string().min(1),
  task_name: z.string().min(1),
  workspace: z.string().nullable().default(null),
  task_data: objectSchema,
  priority: z.number().int(),
});
export type WorkflowTemplateRequest = z.input<typeof workflowTemplateRequestSchema>;
/** The legacy form's response has the same fields as the normalised template. */
export const workflowTemplateResponseSchema = workflowTemplateDataSchema;
export type WorkflowTemplateResponse = WorkflowTemplateData;

// ---------------------------------------------------------------------------------------
// Workspace inheritance

export const inheritanceElementSchema = z
  .strictObject({
    id: z.number().int().nullable().default(null),
    scope: z.string().nullable().default(null),
    workspace: z.string().nullable().default(null),
  })
  .refine((e) => e.id !== null || e.workspace !== null, {
    message: 'an inheritance element needs an id or a workspace',
  });
export type InheritanceElement = z.output<typeof inheritanceElementSchema>;

export const workspaceInheritanceChainSchema = z.looseObject({
  chain: z.array(inheritanceElementSchema).default([]),
  links: linksSchema,
});
export type WorkspaceInheritanceChain = z.infer<typeof workspaceInheritanceChainSchema>;
export type WorkspaceInheritanceChainInput = z.input<typeof workspaceInheritanceChainSchema>;

/** Two elements match when every component set on the one equals that of the other. */
export function inheritanceElementsMatch(a: InheritanceElement, b: InheritanceElement): boolean {
  const keys = ['id', 'scope', 'workspace'] as const;
  const covers = (x: InheritanceElement, y: InheritanceElement): boolean =>
    keys.every((k) => x[k] === null || x[k] === y[k]);
  return covers(a, b) || covers(b, a);
}

/** `workspace` or `scope/workspace`, as a user types them, to a chain element. */
export function inheritanceElementFromString(text: string): InheritanceElement {
  const parts = text.trim().split('/');
  const [first, second] = parts;
  if (parts.length > 2 || !first || (parts.length === 2 && !second)) {
    throw new Error(`Not a workspace name or scope/workspace: ${JSON.stringify(text)}`);
  }
  return second === undefined
    ? { id: null, scope: null, workspace: first }
    : { id: null, scope: first, workspace: second };
}

// ---------------------------------------------------------------------------------------
// Enrollment

export const enrollPayloadSchema = z.strictObject({
  nonce: z.string(),
  challenge: z.string(),
  scope: z.string(),
  hostname: z.string(),
});
export type EnrollPayload = z.infer<typeof enrollPayloadSchema>;

export const ENROLL_OUTCOMES = ['cancel', 'confirm'] as const;
export const enrollConfirmPayloadSchema = z.strictObject({
  outcome: z.enum(ENROLL_OUTCOMES),
  token: z.string().nullable(),
});
export type EnrollConfirmPayload = z.infer<typeof enrollConfirmPayloadSchema>;
