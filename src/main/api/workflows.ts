/**
 * Workflows and workflow templates, in the form each server speaks:
 * - 0.13 and later: `/workflow-template/{workspace}/…`, `static_parameters` and
 *   `runtime_parameters` (a `task_data` sent there would be silently dropped, so a
 *   template's `task_data`, the form the bridge and earlier servers use, is sent as
 *   `static_parameters`);
 * - 0.11 and 0.12: the legacy `/workflow-template/` and `/workflow-template/{id}/` with
 *   `task_data` and the workspace in the body; no listing, no lookup by name.
 */
import {
  createWorkflowRequestSchema,
  workflowTemplateDataNewSchema,
  workflowTemplateDataSchema,
  workflowTemplateRequestSchema,
  workflowTemplateResponseSchema,
  workflowTemplateUpdateRequestSchema,
  workRequestResponseSchema,
  type CreateWorkflowRequest,
  type WorkflowTemplateData,
  type WorkflowTemplateDataNew,
  type WorkflowTemplateRequest,
  type WorkflowTemplateResponse,
  type WorkflowTemplateUpdateRequest,
  type WorkRequestResponse,
} from '../../shared/models';
import { DebusineError } from '../../shared/errors';
import { listing } from './endpoint';
import { seg } from './pagination';
import { unsupportedError, type ApiContext, type ServerRevision } from './revision';
import { parseRequest, requireId, requireName } from './validate';

export async function workflowCreate(
  ctx: ApiContext,
  request: CreateWorkflowRequest,
): Promise<WorkRequestResponse> {
  const { workspace, ...rest } = parseRequest(
    'workflowCreate',
    createWorkflowRequestSchema,
    request,
  );
  return ctx.request({
    operation: 'workflowCreate',
    method: 'POST',
    path: '/workflow/',
    body: workspace === null ? rest : { ...rest, workspace },
    expect: [200, 201],
    schema: workRequestResponseSchema,
  });
}

const templates = (workspace: string): string => `/workflow-template/${seg(workspace)}/`;

/** Options only servers of 0.13 and later know; earlier ones would ignore them silently. */
function refuseNewOptions(
  operation: string,
  revision: ServerRevision,
  data: { runtime_parameters?: unknown; extra_groups?: unknown; restricted?: unknown },
): void {
  for (const key of ['runtime_parameters', 'extra_groups', 'restricted'] as const) {
    if (data[key] !== undefined) throw unsupportedError(`${operation} (${key})`, revision);
  }
}

/** Creates a template in the form the server speaks (see the module comment). */
export async function workflowTemplateCreate(
  ctx: ApiContext,
  workspace: string,
  data: WorkflowTemplateDataNew,
): Promise<WorkflowTemplateData> {
  const op = 'workflowTemplateCreate';
  requireName(op, workspace, 'workspace');
  const t = parseRequest(op, workflowTemplateDataNewSchema, data);
  const revision = await ctx.revision();
  if (!revision.features.workspaceTemplates) {
    refuseNewOptions(op, revision, t);
    return legacyCreate(ctx, op, {
      name: t.name,
      task_name: t.task_name,
      workspace,
      task_data: t.static_parameters ?? t.task_data,
      priority: t.priority,
    });
  }
  const { task_data, static_parameters, ...rest } = t;
  return ctx.request({
    operation: op,
    method: 'POST',
    path: templates(workspace),
    body: { ...rest, static_parameters: static_parameters ?? task_data },
    expect: [201],
    schema: workflowTemplateDataSchema,
  });
}

/** The legacy form: workspace in the body. Only servers before 0.13 have it. */
export async function workflowTemplateCreateLegacy(
  ctx: ApiContext,
  request: WorkflowTemplateRequest,
): Promise<WorkflowTemplateResponse> {
  const op = 'workflowTemplateCreateLegacy';
  const body = parseRequest(op, workflowTemplateRequestSchema, request);
  await ctx.require(op, 'legacyTemplates');
  return legacyCreate(ctx, op, body);
}

async function legacyCreate(
  ctx: ApiContext,
  operation: string,
  body: { workspace: string | null } & Record<string, unknown>,
): Promise<WorkflowTemplateResponse> {
  const { workspace, ...rest } = body;
  return ctx.request({
    operation,
    method: 'POST',
    path: '/workflow-template/',
    body: workspace === null ? rest : body,
    expect: [201],
    schema: workflowTemplateResponseSchema,
  });
}

/** Where one template is: its checked workspace and key, and the server's revision. */
interface TemplateAt {
  op: string;
  workspace: string;
  key: number | string;
  revision: ServerRevision;
}

/**
 * Builds an operation on one template, by id (a number, or a string of digits) or by name:
 * the workspace and the key are checked before anything is sent, then the revision read.
 */
function onTemplate<R>(
  op: string,
  run: (ctx: ApiContext, at: TemplateAt) => Promise<R>,
): (ctx: ApiContext, workspace: string, template: number | string) => Promise<R> {
  return async (ctx, workspace, template) => {
    requireName(op, workspace, 'workspace');
    const key = parseRequest(op, workflowTemplateKey, template, 'template');
    return run(ctx, { op, workspace, key, revision: await ctx.revision() });
  };
}

/** By id (a number, or a string of digits) or by name. */
export const workflowTemplateGet = onTemplate(
  'workflowTemplateGet',
  async (ctx, { op, workspace, key, revision }): Promise<WorkflowTemplateData> => {
    if (revision.features.workspaceTemplates) {
      return ctx.request({
        operation: op,
        method: 'GET',
        path: `${templates(workspace)}${seg(key)}/`,
        schema: workflowTemplateDataSchema,
      });
    }
    if (typeof key !== 'number') throw unsupportedError(`${op} (by name)`, revision);
    const found = await ctx.request({
      operation: op,
      method: 'GET',
      path: `/workflow-template/${String(key)}/`,
      schema: workflowTemplateResponseSchema,
    });
    // The legacy path is not per workspace: a template of another workspace is not this one's.
    if (
      found.workspace !== undefined &&
      found.workspace !== null &&
      found.workspace !== workspace
    ) {
      throw new DebusineError('not-found', `${op}: no template ${String(key)} in ${workspace}`, {
        operation: op,
        status: 404,
      });
    }
    return found;
  },
);

const workflowTemplateKey = workflowTemplateUpdateRequestSchema.shape.id
  .positive()
  .or(workflowTemplateDataNewSchema.shape.name.transform((v) => (/^\d+$/.test(v) ? Number(v) : v)));

export const workflowTemplateIter = listing(
  'workflowTemplateIter',
  'workspaceTemplates',
  workflowTemplateDataSchema,
  (workspace: string) => ({ path: templates(workspace) }),
);

/** PATCH by id: fields left out keep their value; the task name cannot change. */
export async function workflowTemplateUpdate(
  ctx: ApiContext,
  workspace: string,
  data: WorkflowTemplateUpdateRequest,
): Promise<WorkflowTemplateData> {
  const op = 'workflowTemplateUpdate';
  requireName(op, workspace, 'workspace');
  const { id, task_data, static_parameters, ...rest } = parseRequest(
    op,
    workflowTemplateUpdateRequestSchema,
    data,
  );
  const parameters = static_parameters ?? task_data;
  const revision = await ctx.revision();
  if (revision.features.workspaceTemplates) {
    return ctx.request({
      operation: op,
      method: 'PATCH',
      path: `${templates(workspace)}${String(id)}/`,
      body: { ...rest, ...(parameters ? { static_parameters: parameters } : {}) },
      schema: workflowTemplateDataSchema,
    });
  }
  refuseNewOptions(op, revision, rest);
  // Checks that the template belongs to this workspace before changing it.
  await workflowTemplateGet(ctx, workspace, id);
  return ctx.request({
    operation: op,
    method: 'PATCH',
    path: `/workflow-template/${String(id)}/`,
    body: { ...rest, ...(parameters ? { task_data: parameters } : {}) },
    schema: workflowTemplateResponseSchema,
  });
}

export const workflowTemplateDelete = onTemplate(
  'workflowTemplateDelete',
  async (ctx, { op, workspace, key, revision }): Promise<void> => {
    let path = `${templates(workspace)}${seg(key)}/`;
    if (!revision.features.workspaceTemplates) {
      const found = await workflowTemplateGet(ctx, workspace, key);
      path = `/workflow-template/${String(requireId(op, found.id))}/`;
    }
    await ctx.request({ operation: op, method: 'DELETE', path, expect: [204] });
  },
);
