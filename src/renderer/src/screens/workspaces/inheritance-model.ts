/** Inheritance chain elements as the editor keeps them, and their checks. */
import {
  inheritanceElementFromString,
  inheritanceElementsMatch,
  type InheritanceElement,
} from '@shared/models';

export interface ChainEntry extends InheritanceElement {
  /** A key for React and drag and drop; not sent. */
  key: string;
}

let counter = 0;
export function entry(element: InheritanceElement): ChainEntry {
  counter++;
  return { ...element, key: `e${String(counter)}` };
}

export function describeElement(e: InheritanceElement): string {
  if (e.workspace !== null) return e.scope !== null ? `${e.scope}/${e.workspace}` : e.workspace;
  return `#${String(e.id)}`;
}

/** `workspace`, `scope/workspace`, or `#id` (a workspace id). */
export function parseElement(text: string): InheritanceElement {
  const t = text.trim();
  const byId = /^#(\d+)$/.exec(t);
  if (byId?.[1]) return { id: Number(byId[1]), scope: null, workspace: null };
  return inheritanceElementFromString(t);
}

/** Refusals before saving: an element needs an id or a workspace; no duplicates. */
export function chainProblems(chain: readonly InheritanceElement[]): Map<number, string> {
  const problems = new Map<number, string>();
  chain.forEach((e, i) => {
    if (e.id === null && e.workspace === null) {
      problems.set(i, 'An element needs an id or a workspace.');
      return;
    }
    const first = chain.findIndex((other) => inheritanceElementsMatch(other, e));
    if (first !== i) problems.set(i, `Duplicate of element ${String(first + 1)}.`);
  });
  return problems;
}

export function plain(chain: readonly ChainEntry[]): InheritanceElement[] {
  return chain.map(({ id, scope, workspace }) => ({ id, scope, workspace }));
}

export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}
