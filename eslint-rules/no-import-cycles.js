// @ts-check
/**
 * `local/no-import-cycles`: reports an import that closes a cycle of modules (a imports b,
 * which imports a again, directly or through others). A cycle makes the load order decide
 * which module sees the other half-initialised, and ties layers that should stay apart.
 *
 * Edges are the imports that load a module: `import … from`, `export … from` and bare
 * `import '…'`. `import type` and `export type` are erased from the output, and `import()`
 * loads later, so neither makes a cycle. The other modules' imports are read from disk
 * (with TypeScript's parser) and kept per file and modification time for the run. Only
 * imports that name a file are followed: relative ones, and the aliases the rule is given.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** @type {Map<string, { stamp: number, edges: string[] }>} */
const parsed = new Map();

/**
 * The file a specifier names, or null (a package, a stylesheet, something outside).
 * @param {string} specifier
 * @param {string} fromDir
 * @param {Record<string, string>} aliases
 */
function resolveSpecifier(specifier, fromDir, aliases) {
  let base = null;
  if (specifier.startsWith('./') || specifier.startsWith('../')) base = resolve(fromDir, specifier);
  for (const [alias, target] of Object.entries(aliases)) {
    if (specifier.startsWith(`${alias}/`)) base = join(target, specifier.slice(alias.length + 1));
  }
  if (base === null) return null;
  for (const extension of ['', ...EXTENSIONS]) {
    const candidate = base + extension;
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) {
      return candidate;
    }
  }
  return null;
}

/**
 * The specifiers of the imports in `body` that load a module.
 * @param {import('@typescript-eslint/types').TSESTree.ProgramStatement[]} body
 */
function loadingImports(body) {
  /** @type {{ specifier: string, node: import('@typescript-eslint/types').TSESTree.Node }[]} */
  const found = [];
  for (const node of body) {
    if (node.type === 'ImportDeclaration' && node.importKind !== 'type') {
      found.push({ specifier: node.source.value, node });
    } else if (
      (node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') &&
      node.source &&
      node.exportKind !== 'type'
    ) {
      found.push({ specifier: node.source.value, node });
    }
  }
  return found;
}

/**
 * @param {string} file
 * @param {Record<string, string>} aliases
 * @returns {string[]}
 */
function edgesOf(file, aliases) {
  const stamp = statSync(file).mtimeMs;
  const cached = parsed.get(file);
  if (cached && cached.stamp === stamp) return cached.edges;
  // TypeScript's own parser, without the scope analysis ESLint's needs: only the top-level
  // import and export statements are looked at.
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  /** @type {string[]} */
  const edges = [];
  for (const statement of source.statements) {
    let specifier = null;
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier ?? null;
    }
    if (specifier === null || !ts.isStringLiteral(specifier)) continue;
    const target = resolveSpecifier(specifier.text, dirname(file), aliases);
    if (target !== null) edges.push(target);
  }
  parsed.set(file, { stamp, edges });
  return edges;
}

/**
 * A path of modules from `start` back to `goal`, or null.
 * @param {string} start
 * @param {string} goal
 * @param {Record<string, string>} aliases
 */
function pathBack(start, goal, aliases) {
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    if (file === goal) {
      const path = [];
      for (
        let at = /** @type {string | null} */ (file);
        at !== null;
        at = cameFrom.get(at) ?? null
      ) {
        path.unshift(at);
      }
      return path;
    }
    for (const next of edgesOf(file, aliases)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports that close a cycle of modules.' },
    schema: [
      {
        type: 'object',
        properties: {
          aliases: { type: 'object', additionalProperties: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      cycle:
        'This import closes a cycle of modules: {{cycle}}. Move what both need to a third module.',
    },
  },
  create(context) {
    const options = /** @type {{ aliases?: Record<string, string> }} */ (context.options[0] ?? {});
    const aliases = Object.fromEntries(
      Object.entries(options.aliases ?? {}).map(([alias, target]) => [
        alias,
        resolve(context.cwd, target),
      ]),
    );
    const self = resolve(context.filename);
    const fromDir = dirname(self);
    return {
      Program(program) {
        for (const { specifier, node } of loadingImports(/** @type {any} */ (program).body)) {
          const target = resolveSpecifier(specifier, fromDir, aliases);
          if (target === null) continue;
          const path = target === self ? [self] : pathBack(target, self, aliases);
          if (path === null) continue;
          const cycle = [self, ...path].map((f) => relative(context.cwd, f)).join(' → ');
          context.report({ node, messageId: 'cycle', data: { cycle } });
        }
      },
    };
  },
};

export default { rules: { 'no-import-cycles': noImportCycles } };
