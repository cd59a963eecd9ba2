/**
 * ESLint with the repository's own configuration, for the tests that show its rules bite:
 * small modules are linted at paths in each layer (they are not written anywhere).
 * Type-aware rules are switched off, for speed: the import rules need no types.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll } from 'vitest';

export const root = resolve(import.meta.dirname, '../..');

function probeLinter(): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }],
  });
}

/** The messages of the import rules (layers, electron, raw IPC, cycles) for `code` at `path`. */
async function importProblems(eslint: ESLint, path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'local/no-import-cycles')
    .map((m) => m.message);
}

/** A module that imports `name` from `specifier` and uses it. */
export const use = (specifier: string, name = 'x'): string =>
  `import { ${name} } from '${specifier}';\nexport const y = ${name};\n`;

/** The messages of one rule, `ruleId`, for `code` at `path`. */
async function ruleProblems(
  eslint: ESLint,
  ruleId: string,
  path: string,
  code: string,
): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

/** What a test file asks of its linter. */
export interface LintProbe {
  /** The messages of the import rules (layers, electron, raw IPC, cycles) for `code` at `path`. */
  readonly imports: (path: string, code: string) => Promise<string[]>;
  /** The messages of one rule, `ruleId`, for `code` at `path`. */
  readonly rule: (ruleId: string, path: string, code: string) => Promise<string[]>;
}

/**
 * The linter of one test file. Loading the configuration and its plugins takes seconds on
 * a busy machine, so it is made once, in the file's `beforeAll`, and warmed there by linting
 * an empty module at `warmPath`, out of the time limit of the first test.
 */
export function lintProbe(warmPath: string): LintProbe {
  let eslint: ESLint | undefined;
  beforeAll(async () => {
    eslint = probeLinter();
    await eslint.lintText('', { filePath: resolve(root, warmPath) });
  }, 120_000);
  const loaded = (): ESLint => {
    if (eslint === undefined) throw new Error('the lint probe is asked before its beforeAll ran');
    return eslint;
  };
  return {
    imports: (path, code) => importProblems(loaded(), path, code),
    rule: (ruleId, path, code) => ruleProblems(loaded(), ruleId, path, code),
  };
}
