/**
 * Task configuration items (the entries of a debusine:task-configuration collection): their
 * names, and a new item's starting point.
 */
export type TaskConfigItem = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The item's name in the collection, computed the way the server does. */
export function itemName(item: TaskConfigItem): string {
  if (typeof item.template === 'string' && item.template !== '') return `template:${item.template}`;
  if (typeof item.path === 'string' && item.path !== '') {
    return `${item.path}:${typeof item.position === 'number' ? String(item.position) : '0'}`;
  }
  return [
    str(item.task_type),
    str(item.task_name),
    str(item.subject),
    encodeURIComponent(str(item.context)),
  ].join(':');
}

export function newItem(existing: readonly TaskConfigItem[]): TaskConfigItem {
  let n = 1;
  const names = new Set(existing.map(itemName));
  while (names.has(`Worker:noop:subject-${String(n)}:`)) n++;
  return {
    task_type: 'Worker',
    task_name: 'noop',
    subject: `subject-${String(n)}`,
    default_values: {},
    override_values: {},
    comment: '',
  };
}

/** Duplicate names, which the server refuses (400). */
export function duplicateNames(items: readonly TaskConfigItem[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const item of items) {
    const name = itemName(item);
    if (seen.has(name)) dups.add(name);
    seen.add(name);
  }
  return [...dups];
}
