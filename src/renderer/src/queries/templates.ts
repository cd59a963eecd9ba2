/** Workflow templates of a workspace on the active server, and starting workflows. */
import type { QueryKey } from '@tanstack/react-query';
import type { RequestArgs, WorkflowTemplateData } from '@shared/contract';
import { defineMutation, defineQuery, type Scope } from './define';

export const templateKeys = {
  list: (scope: Scope, workspace: string): QueryKey => [scope, 'workflowTemplates', workspace],
};

export const templateQueries = {
  /** Servers before Debusine 0.13 cannot list them: that is an `unsupported` error. */
  list: (scope: Scope, workspace: string) =>
    defineQuery(
      templateKeys.list(scope, workspace),
      (bridge) => bridge.workflowTemplates.list({ workspace }),
      { retry: false },
    ),
};

export type NewTemplate = RequestArgs<'workflowTemplates.create'>['template'];
type TemplateChanges = RequestArgs<'workflowTemplates.update'>['template'];

export const templateMutations = {
  /** One template by its id (what earlier servers, which cannot list them, offer). */
  open: defineMutation({
    fn: (bridge, args: { workspace: string; id: number }) =>
      bridge.workflowTemplates.get({ workspace: args.workspace, template: args.id }),
  }),
  /** Creates a template (`id` null) or changes one. */
  save: defineMutation({
    fn: (
      bridge,
      args:
        | { workspace: string; id: null; template: NewTemplate }
        | { workspace: string; id: number; template: Omit<TemplateChanges, 'id'> },
    ): Promise<WorkflowTemplateData> =>
      args.id === null
        ? bridge.workflowTemplates.create({ workspace: args.workspace, template: args.template })
        : bridge.workflowTemplates.update({
            workspace: args.workspace,
            template: { ...args.template, id: args.id },
          }),
    invalidates: (scope, args) => [templateKeys.list(scope, args.workspace)],
  }),
  remove: defineMutation({
    fn: (bridge, args: { workspace: string; id: number }) =>
      bridge.workflowTemplates.delete({ workspace: args.workspace, template: args.id }),
    invalidates: (scope, args) => [templateKeys.list(scope, args.workspace)],
  }),
  /** Starts a workflow from a template; the answer is its root work request. */
  start: defineMutation({
    fn: (bridge, args: RequestArgs<'workflows.create'>) => bridge.workflows.create(args),
  }),
};
