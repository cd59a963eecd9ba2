import type { z } from 'zod';
import { DebusineError } from '../../shared/errors';

/** Parses a request model, refusing values of the wrong type before anything is sent. */
export function parseRequest<S extends z.ZodType>(
  operation: string,
  schema: S,
  value: unknown,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  throw new DebusineError(
    'validation',
    `${operation}: invalid request${field ? ` field '${field}'` : ''}: ${issue?.message ?? 'invalid'}`,
    { operation, field },
  );
}
