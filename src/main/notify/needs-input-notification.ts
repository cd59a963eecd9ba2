/**
 * What the desktop notification of a step that waits for a person says: "Workflow #42
 * waits for your confirmation", the workflow's template (or task) and workspace, and the
 * step. The names come from the server and are shown as one short line each.
 */
import type { WorkRequestResponse } from '../../shared/models';
import { NEEDS_INPUT } from '../../shared/results/end';
import {
  visibleNotification,
  type CompletionNotification,
  type NotificationAction,
} from './notifier';

/** What a waiting step waits for. */
export type WaitKind = 'confirmation' | 'signature' | 'input';

/** The result a waiting step's notification is recorded with in the app's list. */
export const NEEDS_INPUT_RESULT = NEEDS_INPUT;

/** Longest name shown for the workflow or the step; the server decides what they are. */
const NAME_MAX = 120;

/**
 * What a running Wait step waits for: a confirmation (`confirm`), a signature
 * (`externaldebsign`), or the user in some other way (a Wait step the workflow marked
 * with `workflow_data.needs_input`); undefined when it waits for nobody (a `delay`).
 */
export function waitKindOf(step: WorkRequestResponse): WaitKind | undefined {
  if (step.task_type !== 'Wait') return undefined;
  if (step.task_name === 'confirm') return 'confirmation';
  if (step.task_name === 'externaldebsign') return 'signature';
  return workflowDataOf(step).needs_input === true ? 'input' : undefined;
}

/** The workflow a step belongs to, as far as it is known. */
export interface WaitingWorkflow {
  id: number;
  /** Its template's name, else its task name, else the watch list's label; null if none. */
  name: string | null;
  workspace: string;
}

/** The workflow's name as the user chose it: the template, else the task. */
export function workflowNameOf(root: WorkRequestResponse): string {
  const template = workflowDataOf(root).workflow_template_name;
  return typeof template === 'string' && template !== '' ? template : root.task_name;
}

const TITLE_ENDINGS: Record<WaitKind, string> = {
  confirmation: 'waits for your confirmation',
  signature: 'waits for your signature',
  input: 'waits for you',
};

export function needsInputNotification(
  step: WorkRequestResponse,
  kind: WaitKind,
  workflow: WaitingWorkflow,
  supportsActions: boolean,
): CompletionNotification {
  const display = workflowDataOf(step).display_name;
  const stepName = typeof display === 'string' && display !== '' ? display : step.task_name;
  const name = workflow.name === null ? '' : `${oneLine(workflow.name)} in `;
  // A signature can be given from the notification itself (on the server that showed it);
  // a confirmation takes a decision and a comment, which the step's page asks for.
  const actions: NotificationAction[] = !supportsActions
    ? []
    : kind === 'signature'
      ? [
          { id: 'sign', label: 'Sign and upload' },
          { id: 'open-in-browser', label: 'Open in browser' },
        ]
      : [{ id: 'open-in-browser', label: 'Open in browser' }];
  return visibleNotification({
    kind: 'needs-input',
    key: `needs-input-${String(step.id)}`,
    title: `Workflow #${String(workflow.id)} ${TITLE_ENDINGS[kind]}`,
    body: `${name}workspace ${oneLine(workflow.workspace)} · step: ${oneLine(stepName)}`,
    workRequestId: step.id,
    actions,
    // It waits until the user acts: it stays on screen where the desktop can do that.
    urgency: 'critical',
    result: NEEDS_INPUT_RESULT,
    rootId: workflow.id,
    reason: null,
  });
}

function workflowDataOf(workRequest: WorkRequestResponse): Record<string, unknown> {
  const data = (workRequest as Record<string, unknown>).workflow_data;
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : {};
}

/**
 * A name from the server as one short line: control characters (newlines included, which
 * would make up lines of their own on the desktop) become spaces, and past NAME_MAX
 * characters it is cut with an ellipsis.
 */
export function oneLine(text: string): string {
  const flat = text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= NAME_MAX) return flat;
  // By graphemes, so that no letter or emoji is cut in half; a long name is read this far.
  const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(
    flat.slice(0, 4 * NAME_MAX),
  );
  const parts: string[] = [];
  for (const { segment } of graphemes) {
    parts.push(segment);
    if (parts.length > NAME_MAX) break;
  }
  const whole = flat.length <= 4 * NAME_MAX;
  if (whole && parts.length <= NAME_MAX) return flat;
  // The last grapheme read may be cut where the name was sliced: it never shows.
  return `${parts.slice(0, Math.min(NAME_MAX - 1, parts.length - 1)).join('')}…`;
}
