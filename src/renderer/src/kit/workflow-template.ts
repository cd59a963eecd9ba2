/**
 * Workflow templates come in two forms: servers from Debusine 0.13 on carry static and
 * runtime parameters; 0.11 and 0.12 ones carry the task data itself.
 */
import type { WorkflowTemplateData } from '@shared/contract';

/** Whether the template is in the 0.13+ form (static/runtime parameters). */
export function isCurrentForm(t: WorkflowTemplateData): boolean {
  return 'static_parameters' in t || 'runtime_parameters' in t;
}

/**
 * Workflows that take their source package inside an `input` mapping rather than as
 * `source_artifact` itself, by the workflow's task name (the template names its workflow).
 */
const SOURCE_INSIDE_INPUT = new Set(['sbuild']);

/**
 * Prefilled task data fitted to a template: `{source_artifact: id}` (what an uploaded
 * artifact offers) becomes `{input: {source_artifact: id}}` for a workflow that takes its
 * source there — one whose runtime parameters let users set `input` but not
 * `source_artifact`, or, where they do not say, one whose workflow is known to. Anything
 * else is left as it is.
 */
export function fitInitialTaskData(
  template: WorkflowTemplateData | null,
  initial: Record<string, unknown>,
): Record<string, unknown> {
  if (!template || !('source_artifact' in initial)) return initial;
  const runtime = isCurrentForm(template) ? template.runtime_parameters : undefined;
  const settable = (key: string): boolean | null =>
    runtime === undefined || runtime === 'any' ? null : Object.hasOwn(runtime, key);
  const takesSource = settable('source_artifact');
  const takesInput = settable('input');
  const inside =
    takesSource === null || takesInput === null
      ? SOURCE_INSIDE_INPUT.has(template.task_name)
      : !takesSource && takesInput;
  if (!inside) return initial;
  const { source_artifact: source, ...rest } = initial;
  const input = initial.input;
  const base =
    input !== null && typeof input === 'object' && !Array.isArray(input)
      ? (input as Record<string, unknown>)
      : {};
  return { ...rest, input: { ...base, source_artifact: source } };
}
