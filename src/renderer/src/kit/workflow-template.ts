/**
 * Workflow templates come in two forms: servers from Debusine 0.13 on carry static and
 * runtime parameters; 0.11 and 0.12 ones carry the task data itself.
 */
import type { WorkflowTemplateData } from '@shared/contract';

/** Whether the template is in the 0.13+ form (static/runtime parameters). */
export function isCurrentForm(t: WorkflowTemplateData): boolean {
  return 'static_parameters' in t || 'runtime_parameters' in t;
}
