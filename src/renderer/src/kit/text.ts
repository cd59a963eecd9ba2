/** JSON and YAML text of the objects the editors work on, and their parsing. */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export type TextFormat = 'yaml' | 'json';

export function toText(value: unknown, format: TextFormat): string {
  if (format === 'json') return `${JSON.stringify(value ?? null, null, 2)}\n`;
  // Keys keep their order; long strings stay on one line so diffs stay line-per-field.
  return stringifyYaml(value ?? null, { lineWidth: 0 });
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

export function parseText(text: string, format: TextFormat): Parsed {
  try {
    if (format === 'json') return { ok: true, value: JSON.parse(text) as unknown };
    return { ok: true, value: parseYaml(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: message.split('\n')[0] ?? message };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality for JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}
