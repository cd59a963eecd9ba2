import { z } from 'zod';
import { DebusineError } from '../../shared/errors';

/**
 * Parses a request model, refusing values of the wrong type before anything is sent.
 * `name` names the argument when the value is not a whole model (e.g. `workspace`).
 */
export function parseRequest<S extends z.ZodType>(
  operation: string,
  schema: S,
  value: unknown,
  name?: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = [...(name ? [name] : []), ...(issue?.path.map(String) ?? [])].join('.');
  throw new DebusineError(
    'validation',
    `${operation}: invalid request${field ? ` field '${field}'` : ''}: ${issue?.message ?? 'invalid'}`,
    { operation, field },
  );
}

const idSchema = z.number().int().positive();

/** Object ids go into paths: refuse anything but a positive integer before sending. */
export function requireId(operation: string, id: unknown, field = 'id'): number {
  const result = idSchema.safeParse(id);
  if (result.success) return result.data;
  throw new DebusineError('validation', `${operation}: '${field}' must be a positive integer`, {
    operation,
    field,
  });
}

const nameSchema = z.string().min(1);

/** Names that go into paths (workspaces, categories) must be non-empty strings. */
export function requireName(operation: string, value: unknown, field: string): string {
  return parseRequest(operation, nameSchema, value, field);
}
