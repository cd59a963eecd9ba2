/**
 * ESLint with the repository's own configuration, for the tests that show its rules bite:
 * small modules are linted at paths in each layer (they are not written anywhere).
 * Type-aware rules are switched off, for speed: the import rules need no types.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

export const root = resolve(import.meta.dirname, '../..');

export function probeLinter(): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }],
  });
}

/** The messages of the import rules (layers, electron, raw IPC, cycles) for `code` at `path`. */
export async function importProblems(
  eslint: ESLint,
  path: string,
  code: string,
): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'local/no-import-cycles')
    .map((m) => m.message);
}

/** A module that imports `name` from `specifier` and uses it. */
export const use = (specifier: string, name = 'x'): string =>
  `import { ${name} } from '${specifier}';\nexport const y = ${name};\n`;

/** The messages of one rule, `ruleId`, for `code` at `path`. */
export async function ruleProblems(
  eslint: ESLint,
  ruleId: string,
  path: string,
  code: string,
): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}
