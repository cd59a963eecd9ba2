/**
 * The deprecation check (scripts/deprecated.mjs, run by `npm test` and `npm run deprecated`) refuses
 * the use of a declaration marked @deprecated, in the project's own files, as ESLint's
 * no-deprecated rule did before the check moved there: a deprecated function (and its
 * import), a deprecated overload, a deprecated property of the DOM or of React's events, and
 * a deprecated prop of a component.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/deprecated.mjs');

/** A project of `files` in a fresh folder: the path of its tsconfig.json. */
function project(files: Record<string, string>, jsx = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'ddt-typecheck-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    module: 'ESNext',
    moduleResolution: 'Bundler',
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    // React's types, from this repository's node_modules.
    ...(jsx ? { jsx: 'react-jsx', typeRoots: [join(root, 'node_modules/@types')] } : {}),
    types: jsx ? ['react'] : [],
  };
  const config = join(dir, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  return config;
}

const projects = {
  old: project({
    'old.ts': [
      '/** @deprecated Use twice(). */',
      'export function double(n: number): number { return n * 2; }',
      'export function pick(): string;',
      '/** @deprecated Pass nothing. */',
      'export function pick(from: string): string;',
      "export function pick(from = 'a'): string { return from; }",
      '',
    ].join('\n'),
    'use.ts': [
      "import { double, pick } from './old';",
      'export const n = double(2);',
      'export const fine = pick();',
      "export const p = pick('b');",
      'export const key = (e: KeyboardEvent) => e.keyCode;',
      '',
    ].join('\n'),
  }),
  jsx: project(
    {
      'view.tsx': [
        "import type { KeyboardEvent } from 'react';",
        '/** A button of one tone. */',
        'function Button(props: {',
        '  /** @deprecated Use tone. */',
        '  kind?: string;',
        '  tone?: string;',
        '}) {',
        '  return <button className={props.tone}>x</button>;',
        '}',
        'export const now = <Button tone="quiet" />;',
        'export const old = <Button kind="quiet" />;',
        'export const key = (e: KeyboardEvent) => e.keyCode;',
        '',
      ].join('\n'),
    },
    true,
  ),
  ok: project({ 'ok.ts': 'export const n: number = 1;\n' }),
  bad: project({ 'bad.ts': "export const n: number = 'one';\n" }),
};

/** What a run printed for each project, and its exit code. */
function typecheck(...names: (keyof typeof projects)[]) {
  const run = spawnSync(process.execPath, [script, ...names.map((name) => projects[name])], {
    cwd: root,
    encoding: 'utf8',
  });
  // Each project's diagnostics, then its summary line naming its tsconfig.json.
  const printed = new Map<string, string>();
  let chunk = '';
  for (const line of run.stdout.split('\n')) {
    chunk += `${line}\n`;
    const name = names.find((n) => line.startsWith(`${relative(root, projects[n])}:`));
    if (name) {
      printed.set(name, chunk);
      chunk = '';
    }
  }
  return { status: run.status, out: (name: string) => printed.get(name) ?? '' };
}

// One run for the three failing projects: each check loads TypeScript's libraries anew.
let failing: ReturnType<typeof typecheck>;
beforeAll(() => {
  failing = typecheck('old', 'jsx', 'bad');
}, 120_000);

describe('the deprecation check', () => {
  it('refuses a deprecated function, overload and DOM property, naming file and line', () => {
    expect(failing.status).toBe(1);
    const out = failing.out('old');
    expect(out).toMatch(/use\.ts\(1,\d+\): error TS6385: 'double' is deprecated/);
    expect(out).toMatch(
      /use\.ts\(2,\d+\): error TS6387: The signature '\(n: number\): number' of 'double' is deprecated/,
    );
    expect(out).not.toMatch(/use\.ts\(3,/);
    expect(out).toMatch(
      /use\.ts\(4,\d+\): error TS6387: The signature '\(from: string\): string' of 'pick' is deprecated/,
    );
    expect(out).toMatch(/use\.ts\(5,\d+\): error TS6385: 'keyCode' is deprecated/);
    expect(out).toMatch(/: 4 error\(s\)/);
  });

  it('refuses a deprecated prop in JSX and a deprecated field of React’s events', () => {
    const out = failing.out('jsx');
    expect(out).toMatch(/view\.tsx\(11,\d+\): error TS6385: 'kind' is deprecated/);
    expect(out).toMatch(/view\.tsx\(12,\d+\): error TS6385: 'keyCode' is deprecated/);
    expect(out).toMatch(/: 2 error\(s\)/);
  });

  it('still refuses a type error', () => {
    expect(failing.out('bad')).toMatch(/bad\.ts\(1,14\): error TS2322/);
  });

  it('passes a project with no error and nothing deprecated', () => {
    const { status, out } = typecheck('ok');
    expect(out('ok')).toMatch(/: 0 error\(s\)/);
    expect(status).toBe(0);
  }, 60_000);
});
