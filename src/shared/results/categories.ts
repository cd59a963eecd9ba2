/**
 * What a task produced, grouped by artifact category in the order a Debian developer reads
 * a build's results: the log first, then the packages, then the QA reports, then the rest.
 */
import type { ArtifactResponse } from '../models';

export type ResultKind =
  | 'build-log'
  | 'binary-packages'
  | 'upload'
  | 'lintian'
  | 'autopkgtest'
  | 'piuparts'
  | 'blhc'
  | 'debug-symbols'
  | 'signing-input'
  | 'debug-logs'
  | 'source-package'
  | 'other';

const BY_CATEGORY: Record<string, { kind: ResultKind; label: string }> = {
  'debian:package-build-log': { kind: 'build-log', label: 'Build log' },
  'debian:binary-package': { kind: 'binary-packages', label: 'Binary packages' },
  'debian:binary-packages': { kind: 'binary-packages', label: 'Binary packages' },
  'debian:upload': { kind: 'upload', label: 'Upload' },
  'debian:lintian': { kind: 'lintian', label: 'Lintian' },
  'debian:autopkgtest': { kind: 'autopkgtest', label: 'Autopkgtest' },
  'debian:piuparts': { kind: 'piuparts', label: 'Piuparts' },
  'debian:blhc': { kind: 'blhc', label: 'Build log hardening check (blhc)' },
  'debian:debug-symbols': { kind: 'debug-symbols', label: 'Debug symbols' },
  'debusine:signing-input': { kind: 'signing-input', label: 'Signing input' },
  'debusine:work-request-debug-logs': { kind: 'debug-logs', label: 'Debug logs' },
  'debian:source-package': { kind: 'source-package', label: 'Source package' },
};

const ORDER: readonly ResultKind[] = [
  'build-log',
  'binary-packages',
  'upload',
  'lintian',
  'autopkgtest',
  'piuparts',
  'blhc',
  'source-package',
  'debug-symbols',
  'signing-input',
  'debug-logs',
  'other',
];

export interface ResultGroup {
  kind: ResultKind;
  label: string;
  artifacts: ArtifactResponse[];
}

export function resultKindOf(category: string): ResultKind {
  return BY_CATEGORY[category]?.kind ?? 'other';
}

/** The artifacts by kind, in reading order; artifacts keep their id order in a group. */
export function groupResults(artifacts: readonly ArtifactResponse[]): ResultGroup[] {
  const groups = new Map<ResultKind, ResultGroup>();
  for (const artifact of [...artifacts].sort((a, b) => a.id - b.id)) {
    const known = BY_CATEGORY[artifact.category];
    const kind = known?.kind ?? 'other';
    const group = groups.get(kind) ?? {
      kind,
      label: known?.label ?? 'Other artifacts',
      artifacts: [],
    };
    group.artifacts.push(artifact);
    groups.set(kind, group);
  }
  return ORDER.flatMap((kind) => {
    const group = groups.get(kind);
    return group ? [group] : [];
  });
}

/**
 * Files of an artifact that read as text in the app's viewer: logs and reports of the
 * tasks, and Debian's control files. Binary packages, tarballs and debug symbols are not.
 */
export function isTextFile(path: string): boolean {
  const name = path.split('/').at(-1) ?? path;
  if (/\.(build|log|txt|changes|dsc|buildinfo|json)$/.test(name)) return true;
  // autopkgtest's output directory: log, summary, per-test -stdout/-stderr and friends.
  return /^(log|summary|testbed-packages|testpkg-version|.+-(stdout|stderr|packages))$/.test(name);
}
