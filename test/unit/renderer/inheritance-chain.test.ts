/**
 * The inheritance editor's checks before a save: each element needs an id or a workspace,
 * and no element may repeat an earlier one, where a bare workspace (or a bare id) matches
 * the same one named more fully.
 */
import { describe, expect, it } from 'vitest';
import {
  chainProblems,
  describeElement,
  moved,
  parseElement,
} from '@renderer/screens/workspaces/inheritance-model';
import type { InheritanceElement } from '@shared/models';

const ws = (workspace: string, scope: string | null = null): InheritanceElement => ({
  id: null,
  scope,
  workspace,
});
const byId = (id: number, workspace: string | null = null): InheritanceElement => ({
  id,
  scope: null,
  workspace,
});

describe('chainProblems', () => {
  it('accepts a chain of distinct elements', () => {
    expect(chainProblems([ws('a'), ws('b', 's'), byId(3)])).toEqual(new Map());
  });

  it('refuses an element with neither an id nor a workspace, at its place', () => {
    const empty = { id: null, scope: 's', workspace: null };
    expect(chainProblems([ws('a'), empty])).toEqual(
      new Map([[1, 'An element needs an id or a workspace.']]),
    );
  });

  it('names the earlier element a duplicate repeats, and only the later one', () => {
    expect(chainProblems([ws('a'), ws('b'), ws('a')])).toEqual(
      new Map([[2, 'Duplicate of element 1.']]),
    );
  });

  it('counts a bare workspace as the same as that workspace in a scope', () => {
    expect(chainProblems([ws('a', 'debian'), ws('a')])).toEqual(
      new Map([[1, 'Duplicate of element 1.']]),
    );
  });

  it('keeps the same workspace name in two scopes apart', () => {
    expect(chainProblems([ws('a', 'debian'), ws('a', 'other')])).toEqual(new Map());
  });

  it('counts an id as the same as that id with its workspace named', () => {
    expect(chainProblems([byId(3, 'a'), byId(3)])).toEqual(
      new Map([[1, 'Duplicate of element 1.']]),
    );
    expect(chainProblems([byId(3), ws('a')])).toEqual(new Map());
  });

  it('reports every repeat of an element against its first appearance', () => {
    expect(chainProblems([ws('a'), ws('a'), ws('a')])).toEqual(
      new Map([
        [1, 'Duplicate of element 1.'],
        [2, 'Duplicate of element 1.'],
      ]),
    );
  });
});

describe('the chain editor text', () => {
  it('reads `workspace`, `scope/workspace` and `#id`, and writes them back', () => {
    expect(parseElement(' a ')).toEqual(ws('a'));
    expect(parseElement('debian/a')).toEqual(ws('a', 'debian'));
    expect(parseElement('#12')).toEqual(byId(12));
    for (const text of ['a', 'debian/a', '#12']) {
      expect(describeElement(parseElement(text))).toBe(text);
    }
  });

  it('refuses text that names no workspace', () => {
    for (const text of ['', '/a', 'a/', 'a/b/c']) expect(() => parseElement(text)).toThrow();
  });
});

describe('moved', () => {
  it('moves an element, keeping the target inside the list', () => {
    expect(moved(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 1, 99)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 5, 0)).toEqual(['a', 'b', 'c']);
  });
});
