/**
 * zod schemas for the resources of the interface (shared/api/interface.md), with the facts
 * of real servers (shared/api/debusine-protocol.md). TypeScript types are inferred from them.
 *
 * Response schemas are loose: fields newer servers add are kept, and fields older servers
 * lack (url, scope, links, content_type) are optional. Request schemas are strict: a value
 * of the wrong type, or an unknown field where the specification forbids them, is refused.
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
 * Status and result values of real servers (protocol §10). They are kept open strings in
 * responses, so that a newer server's value does not break parsing; these lists drive the
 * UI's filters and labels.
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
  /** Seconds; real servers send a float although the specification says integer. */
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
