/** What a failed save says, split into the fields it concerns and the rest. */
import { isDebusineError } from '@shared/errors';

export interface Problem {
  code: string;
  title: string;
  /** The server's detail, as readable text. */
  detail: string | null;
  /** field → messages, from problem+json validation_errors (or a `detail` object). */
  fields: Record<string, string[]>;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(text).join('; ');
  return JSON.stringify(value);
}

function messages(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text);
  return [text(value)];
}

export function problemOf(error: unknown): Problem {
  if (!isDebusineError(error)) {
    return {
      code: 'internal',
      title: error instanceof Error ? error.message : String(error),
      detail: null,
      fields: {},
    };
  }
  const { title, detail, validationErrors } = error.details;
  const fields: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(validationErrors ?? {})) {
    fields[field] = messages(list);
  }
  // A request the bridge refused before sending: zod issues, with dotted paths.
  const issues = error.details.issues;
  if (Array.isArray(issues)) {
    for (const issue of issues as { path?: unknown; message?: unknown }[]) {
      const path = typeof issue.path === 'string' ? issue.path : '';
      const field = path.replace(/^(collection|template)\./, '') || 'non_field_errors';
      fields[field] = [...(fields[field] ?? []), text(issue.message)];
    }
  }
  let detailText: string | null = null;
  // Django model validation answers `detail: {field: [messages]}`: those are field errors too.
  if (detail !== null && typeof detail === 'object' && !Array.isArray(detail)) {
    for (const [field, list] of Object.entries(detail as Record<string, unknown>)) {
      fields[field] = [...(fields[field] ?? []), ...messages(list)];
    }
  } else if (detail !== undefined && detail !== null) {
    detailText = text(detail);
  }
  const titleText = typeof title === 'string' && title !== '' ? title : error.message;
  // A bare "Error" title says nothing: the message (with the server's words) does.
  if (detailText === null && Object.keys(fields).length === 0 && error.message !== titleText) {
    detailText = error.message;
  }
  return {
    code: error.code,
    title: titleText,
    detail: detailText,
    fields,
  };
}

/** Messages for one field (or any dotted sub-field of it). */
export function fieldMessages(problem: Problem | null, field: string): string[] {
  if (!problem) return [];
  return Object.entries(problem.fields)
    .filter(([k]) => k === field || k.startsWith(`${field}.`))
    .flatMap(([k, list]) => (k === field ? list : list.map((m) => `${k}: ${m}`)));
}

/** Field errors that no field of the form shows. */
export function otherFieldMessages(problem: Problem | null, shown: readonly string[]): string[] {
  if (!problem) return [];
  return Object.entries(problem.fields)
    .filter(([k]) => !shown.some((f) => k === f || k.startsWith(`${f}.`)))
    .flatMap(([k, list]) => list.map((m) => (k === 'non_field_errors' ? m : `${k}: ${m}`)));
}

export function isUnsupported(error: unknown): boolean {
  return isDebusineError(error) && error.code === 'unsupported';
}
