/**
 * The editor's drafts of a workflow template, in the two forms servers speak: `current`
 * (static and runtime parameters, extra groups, restricted) and `earlier` (task data).
 */
import type { WorkflowTemplateData } from '@shared/contract';

export type RuntimeParameters = 'any' | Record<string, 'any' | unknown[]>;

export interface CurrentDraft {
  form: 'current';
  name: string;
  task_name: string;
  priority: number;
  static_parameters: Record<string, unknown>;
  runtime_parameters: RuntimeParameters;
  extra_groups: string[];
  restricted: boolean;
}

export interface EarlierDraft {
  form: 'earlier';
  name: string;
  task_name: string;
  priority: number;
  task_data: Record<string, unknown>;
}

export type TemplateDraft = CurrentDraft | EarlierDraft;

export function draftOf(
  t: WorkflowTemplateData | null,
  form: 'current' | 'earlier',
): TemplateDraft {
  const common = { name: t?.name ?? '', task_name: t?.task_name ?? '', priority: t?.priority ?? 0 };
  if (form === 'earlier') return { form, ...common, task_data: t?.task_data ?? {} };
  const extra = (t as { extra_groups?: unknown } | null)?.extra_groups;
  const restricted = (t as { restricted?: unknown } | null)?.restricted;
  return {
    form,
    ...common,
    static_parameters: t?.static_parameters ?? {},
    runtime_parameters: t?.runtime_parameters ?? {},
    extra_groups: Array.isArray(extra) ? extra.map(String) : [],
    restricted: restricted === true,
  };
}

/** What the review diff shows, and what is saved: the draft without its form marker. */
export function body(d: TemplateDraft): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...d };
  delete rest.form;
  return rest;
}

export function checkRuntimeParameters(value: unknown): string | null {
  if (value === 'any') return null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'runtime_parameters is "any", or a mapping of key → list of allowed values or "any".';
  }
  for (const [k, v] of Object.entries(value)) {
    if (v !== 'any' && !Array.isArray(v)) return `${k}: a list of allowed values, or "any".`;
  }
  return null;
}

/** Common workflow names, as suggestions (any registered workflow may be typed). */
export const WORKFLOW_NAMES = [
  'noop',
  'sbuild',
  'debian_pipeline',
  'package_upload',
  'qa',
  'autopkgtest',
  'lintian',
  'piuparts',
  'reverse_dependencies_autopkgtest',
  'make_signed_source',
  'package_publish',
  'update_environments',
  'create_experiment_workspace',
];
