/**
 * The file-set rules of each kind of local artifact (those of the Debusine client's local
 * artifacts), and the data model check. The server checks neither file rule: a broken
 * artifact would be accepted and then fail its tasks, so the client refuses it here.
 * Every error names its rule (`details.rule`, e.g. `source-package.files-match-dsc`).
 */
import { baseName } from '../../../shared/base-name';
import { DebusineError } from '../../../shared/errors';
import { DATA_SCHEMAS, kindOfCategory, type KindName } from './kind-data';
import { checkPathInArtifact, type LocalArtifact } from './local-artifact';

export interface RuleOptions {
  /** Upload: names listed in the .changes that were deliberately left out. */
  excludeFiles?: Iterable<string>;
}

function broken(rule: string, message: string, file?: string): DebusineError {
  return new DebusineError('validation', message, { rule, ...(file ? { file } : {}) });
}

function listedNames(fields: unknown, field: string): string[] {
  if (typeof fields !== 'object' || fields === null) return [];
  const value = (fields as Record<string, unknown>)[field];
  if (!Array.isArray(value)) return [];
  return value.map((entry) =>
    typeof entry === 'object' && entry !== null ? String((entry as { name?: unknown }).name) : '',
  );
}

function exactlyOneEndingIn(kind: string, paths: string[], suffix: string): string {
  const matching = paths.filter((p) => p.endsWith(suffix));
  if (matching.length !== 1) {
    throw broken(
      `${kind}.one${suffix.replace('.', '-')}`,
      `Expecting 1 ${suffix} file in [${paths.join(', ')}], found ${String(matching.length)}`,
    );
  }
  return matching[0] ?? '';
}

function exactlyOne(kind: string, paths: string[]): string {
  if (paths.length !== 1) {
    throw broken(
      `${kind}.one-file`,
      `Expected number of files: 1 Actual: ${String(paths.length)} ([${paths.join(', ')}])`,
    );
  }
  return paths[0] ?? '';
}

function suffixes(kind: string, paths: string[], valid: readonly string[]): void {
  for (const path of paths) {
    if (!valid.some((s) => path.endsWith(s))) {
      throw broken(
        `${kind}.suffix`,
        `Valid file suffixes: [${valid.join(', ')}]. Invalid filename: "${path}"`,
        path,
      );
    }
  }
}

function filesMatch(
  rule: string,
  what: string,
  meta: string,
  paths: string[],
  listed: string[],
  excluded: Set<string>,
): void {
  const have = paths.filter((p) => p !== meta).sort();
  const want = listed.filter((n) => !excluded.has(n)).sort();
  if (have.join('\n') !== want.join('\n')) {
    const missing = want.filter((n) => !have.includes(n));
    const extra = have.filter((n) => !want.includes(n));
    throw broken(
      rule,
      `Files in the package and listed in the ${what} must match. ` +
        `Files: [${have.join(', ')}] Listed in ${what}: [${want.join(', ')}]` +
        (missing.length ? `; missing: [${missing.join(', ')}]` : '') +
        (extra.length ? `; not listed: [${extra.join(', ')}]` : ''),
      meta,
    );
  }
}

const DEB = ['.deb', '.udeb'] as const;

const FILE_RULES: Record<KindName, (a: LocalArtifact, paths: string[], o: RuleOptions) => void> = {
  sourcePackage(a, paths) {
    const dsc = exactlyOneEndingIn('source-package', paths, '.dsc');
    const listed = listedNames(a.data.dsc_fields, 'Files');
    filesMatch('source-package.files-match-dsc', '.dsc', dsc, paths, listed, new Set());
  },
  binaryPackage(_a, paths) {
    exactlyOne('binary-package', paths);
    suffixes('binary-package', paths, DEB);
  },
  binaryPackages(_a, paths) {
    if (paths.length === 0)
      throw broken('binary-packages.at-least-one', 'Must have at least one file');
    suffixes('binary-packages', paths, DEB);
  },
  upload(a, paths, o) {
    const changes = exactlyOneEndingIn('upload', paths, '.changes');
    const listed = listedNames(a.data.changes_fields, 'Files');
    const excluded = new Set(o.excludeFiles ?? []);
    filesMatch('upload.files-match-changes', '.changes', changes, paths, listed, excluded);
  },
  packageBuildLog(_a, paths) {
    exactlyOne('package-build-log', paths);
    suffixes('package-build-log', paths, ['.build']);
  },
  autopkgtest() {
    // Debusine sets no rule on this kind's files, only how its task gathers them.
  },
  blhc(_a, paths) {
    exactlyOne('blhc', paths);
  },
  debdiff(_a, paths) {
    exactlyOne('debdiff', paths);
  },
  lintian(_a, paths) {
    const required = ['analysis.json', 'lintian.txt'];
    if (paths.length !== 2 || !required.every((r) => paths.includes(r))) {
      throw broken(
        'lintian.files-required',
        `Files required: ['analysis.json', 'lintian.txt'], found [${paths.join(', ')}]`,
      );
    }
  },
  piuparts(_a, paths) {
    exactlyOne('piuparts', paths);
  },
  systemTarball(_a, paths) {
    exactlyOne('system-tarball', paths);
    suffixes('system-tarball', paths, ['.tar.xz']);
  },
  repositoryIndex(a, paths) {
    const file = exactlyOne('repository-index', paths);
    const path = a.data.path;
    if (typeof path === 'string' && baseName(path) !== file) {
      throw broken(
        'repository-index.name-matches-path',
        `The file "${file}" must be named after the last component of path "${path}"`,
        file,
      );
    }
  },
  signingInput(_a, paths) {
    if (paths.length === 0)
      throw broken('signing-input.at-least-one', 'Expected at least one file');
  },
  signingOutput() {
    // Debusine sets no rule on this kind's files, only how its task gathers them.
  },
  signingKey(_a, paths) {
    if (paths.length !== 0) {
      throw broken('signing-key.no-files', 'A signing key artifact records a key: it has no files');
    }
  },
  workRequestDebugLogs() {
    // Any files.
  },
};

/** Checks the category, the data model and the file-set rules; throws the first failure. */
export function validateLocalArtifact(
  artifact: LocalArtifact,
  options: RuleOptions = {},
): KindName {
  const kind = kindOfCategory(artifact.category);
  if (!kind) {
    throw broken(
      'category',
      `Invalid category: '${artifact.category}'. Expected one of the known kinds`,
    );
  }
  const result = DATA_SCHEMAS[kind].safeParse(artifact.data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = ['data', ...(issue?.path.map(String) ?? [])].join('.');
    throw new DebusineError(
      'validation',
      `Invalid data for ${artifact.category} at '${field}': ${issue?.message ?? 'invalid'}`,
      { rule: `${kebab(kind)}.data`, field },
    );
  }
  // Files set directly (a draft read back, a caller of the library) skipped addLocalFile.
  for (const path of artifact.paths()) checkPathInArtifact(path, path);
  FILE_RULES[kind](artifact, artifact.paths(), options);
  if (kind === 'upload') checkUploadData(artifact);
  return kind;
}

/** The 0.16 server's own validators on `changes_fields` (docs/debusine-server-facts.md). */
function checkUploadData(artifact: LocalArtifact): void {
  const fields = artifact.data.changes_fields as Record<string, unknown>;
  const archs = new Set(String(fields.Architecture).split(/\s+/).filter(Boolean));
  const names = listedNames(fields, 'Files');
  const debs = names.filter((n) => n.endsWith('.deb') || n.endsWith('.udeb'));
  const dscs = names.filter((n) => n.endsWith('.dsc'));
  if (archs.size === 1 && archs.has('source')) {
    if (debs.length)
      throw broken('upload.source-only', 'A source-only upload lists binary packages');
    const other = names.filter((n) => n.endsWith('.buildinfo') && !n.endsWith('_source.buildinfo'));
    if (other.length)
      throw broken('upload.source-only', `A source-only upload lists ${other.join(', ')}`);
  } else if ([...archs].some((a) => a !== 'source') && debs.length === 0) {
    throw broken('upload.binary-has-debs', 'A binary upload must list at least one .deb or .udeb');
  }
  if (archs.has('source') && dscs.length !== 1) {
    throw broken('upload.source-has-dsc', `An upload with source must list exactly one .dsc`);
  }
  if (!archs.has('source') && dscs.length !== 0) {
    throw broken('upload.source-has-dsc', 'An upload without source must not list a .dsc');
  }
}

function kebab(kind: string): string {
  return kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
