/**
 * Which files ESLint lints with the type checker: the code that ships (main, the preload,
 * the renderer, src/shared) gets every type-aware rule of the strict set; tests, benchmarks
 * and build configuration only the rules that catch a promise nobody awaits. The use of a
 * deprecated declaration is `npm run deprecated`'s to refuse, everywhere
 * (typecheck-deprecated.test.ts), so no file lints it.
 */
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { root } from '../support/lint-probe';

const eslint = new ESLint({ cwd: root });

/** The severity of `rule` for a file at `path` (0 off, 1 warn, 2 error). */
async function severity(path: string, rule: string): Promise<number> {
  const config = (await eslint.calculateConfigForFile(path)) as Linter.Config;
  const entry = config.rules?.[rule];
  const level = Array.isArray(entry) ? entry[0] : entry;
  return level === 'error' ? 2 : level === 'warn' ? 1 : typeof level === 'number' ? level : 0;
}

const SHIPPED = [
  'src/main/api/http.ts',
  'src/preload/api.ts',
  'src/renderer/src/app.tsx',
  'src/shared/base-name.ts',
];
const TOOLS = [
  'test/unit/probe.test.ts',
  'test/e2e/probe.test.ts',
  'test/unit/renderer/probe.test.tsx',
  'test/support/probe.ts',
  'bench/lib/probe.ts',
  'vitest.config.ts',
];

describe('typed lint', { timeout: 60_000 }, () => {
  it('applies every type-aware rule to the code that ships', async () => {
    for (const path of SHIPPED) {
      for (const rule of [
        '@typescript-eslint/no-floating-promises',
        '@typescript-eslint/no-misused-promises',
        '@typescript-eslint/no-unsafe-assignment',
        '@typescript-eslint/no-unsafe-argument',
        '@typescript-eslint/no-unnecessary-condition',
      ]) {
        expect([path, rule, await severity(path, rule)]).toEqual([path, rule, 2]);
      }
    }
  });

  it('leaves deprecated declarations to npm run deprecated', async () => {
    for (const path of [...SHIPPED, ...TOOLS]) {
      expect(await severity(path, '@typescript-eslint/no-deprecated')).toBe(0);
    }
  });

  it('applies only the unawaited-promise rules to tests, benchmarks and configuration', async () => {
    for (const path of TOOLS) {
      for (const rule of [
        '@typescript-eslint/no-floating-promises',
        '@typescript-eslint/await-thenable',
      ]) {
        expect([path, rule, await severity(path, rule)]).toEqual([path, rule, 2]);
      }
      for (const rule of [
        '@typescript-eslint/no-unsafe-assignment',
        '@typescript-eslint/no-misused-promises',
        '@typescript-eslint/no-deprecated',
      ]) {
        expect([path, rule, await severity(path, rule)]).toEqual([path, rule, 0]);
      }
    }
  });
});
