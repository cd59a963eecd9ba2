import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/main/artifacts/local/kind-data';
import { validateLocalArtifact } from '../../src/main/artifacts/local/kind-rules';
import { createLintian, createRepositoryIndex } from '../../src/main/artifacts/local/kinds-results';
import { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import { DebusineError } from '../../src/shared/errors';

const dir = mkdtempSync(join(tmpdir(), 'ddt-rules-'));

function file(name: string, content = name): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

async function make(
  category: string,
  data: Record<string, unknown>,
  names: string[],
): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(category, data);
  for (const name of names) await artifact.addLocalFile(file(name), { overrideName: name });
  return artifact;
}

const dscData = (names: string[]) => ({
  name: 'hello',
  version: '1.0',
  type: 'dpkg',
  dsc_fields: { Source: 'hello', Files: names.map((name) => ({ md5sum: 'x', size: '1', name })) },
});
const changesData = (arch: string, names: string[]) => ({
  type: 'dpkg',
  changes_fields: {
    Architecture: arch,
    Files: names.map((name) => ({ md5sum: 'x', size: '1', section: 's', priority: 'p', name })),
  },
});
const tarballData = {
  vendor: 'debian',
  codename: 'trixie',
  mirror: 'https://deb.debian.org/debian',
  components: ['main'],
  pkglist: {},
  architecture: 'amd64',
  with_dev: true,
  with_init: true,
};

type Case = [
  rule: string,
  build: () => Promise<LocalArtifact>,
  options?: { excludeFiles?: string[] },
];

const CASES: Case[] = [
  ['category', () => make('debian:nonsense', {}, [])],
  [
    'source-package.one-dsc',
    () => make(CATEGORIES.sourcePackage, dscData(['a.tar.xz']), ['a.tar.xz']),
  ],
  [
    'source-package.files-match-dsc',
    () => make(CATEGORIES.sourcePackage, dscData(['a.tar.xz']), ['a.dsc', 'a.tar.xz', 'b.diff.gz']),
  ],
  [
    'source-package.data',
    () => make(CATEGORIES.sourcePackage, { ...dscData([]), extra: 1 }, ['a.dsc']),
  ],
  [
    'binary-package.one-file',
    () =>
      make(
        CATEGORIES.binaryPackage,
        { srcpkg_name: 'a', srcpkg_version: '1', deb_fields: {}, deb_control_files: [] },
        ['a.deb', 'b.deb'],
      ),
  ],
  [
    'binary-package.suffix',
    () =>
      make(
        CATEGORIES.binaryPackage,
        { srcpkg_name: 'a', srcpkg_version: '1', deb_fields: {}, deb_control_files: [] },
        ['a.ddeb'],
      ),
  ],
  [
    'binary-packages.at-least-one',
    () =>
      make(
        CATEGORIES.binaryPackages,
        { srcpkg_name: 'a', srcpkg_version: '1', version: '1', architecture: 'all', packages: [] },
        [],
      ),
  ],
  [
    'binary-packages.suffix',
    () =>
      make(
        CATEGORIES.binaryPackages,
        {
          srcpkg_name: 'a',
          srcpkg_version: '1',
          version: '1',
          architecture: 'all',
          packages: ['a'],
        },
        ['a.deb', 'a.tar.gz'],
      ),
  ],
  ['upload.one-changes', () => make(CATEGORIES.upload, changesData('all', ['a.deb']), ['a.deb'])],
  [
    'upload.files-match-changes',
    () => make(CATEGORIES.upload, changesData('all', ['a.deb', 'b.deb']), ['a.changes', 'a.deb']),
  ],
  [
    'upload.files-match-changes',
    () => make(CATEGORIES.upload, changesData('all', ['a.deb']), ['a.changes', 'a.deb', 'x.deb']),
    { excludeFiles: [] },
  ],
  [
    'upload.source-only',
    () =>
      make(CATEGORIES.upload, changesData('source', ['a.dsc', 'a.deb']), [
        'a.changes',
        'a.dsc',
        'a.deb',
      ]),
  ],
  [
    'upload.binary-has-debs',
    () => make(CATEGORIES.upload, changesData('amd64', []), ['a.changes']),
  ],
  [
    'upload.source-has-dsc',
    () =>
      make(CATEGORIES.upload, changesData('source all', ['a.tar.xz', 'a.deb']), [
        'a.changes',
        'a.tar.xz',
        'a.deb',
      ]),
  ],
  [
    'upload.data',
    () => make(CATEGORIES.upload, { type: 'dpkg', changes_fields: { Files: [] } }, ['a.changes']),
  ],
  [
    'package-build-log.one-file',
    () =>
      make(CATEGORIES.packageBuildLog, { source: 'a', version: '1', filename: 'a.build' }, [
        'a.build',
        'b.build',
      ]),
  ],
  [
    'package-build-log.suffix',
    () =>
      make(CATEGORIES.packageBuildLog, { source: 'a', version: '1', filename: 'a.log' }, ['a.log']),
  ],
  ['blhc.one-file', () => make(CATEGORIES.blhc, {}, [])],
  ['blhc.data', () => make(CATEGORIES.blhc, { package: 'x' }, ['blhc.txt'])],
  [
    'debdiff.one-file',
    () => make(CATEGORIES.debdiff, { original: 'a', new: 'b' }, ['x.txt', 'y.txt']),
  ],
  ['debdiff.data', () => make(CATEGORIES.debdiff, { original: 'a' }, ['debdiff.txt'])],
  ['lintian.files-required', () => make(CATEGORIES.lintian, lintianData(), ['lintian.txt'])],
  [
    'lintian.analysis-json',
    () =>
      createLintian({
        analysis: file('bad/analysis.json', '{not json'),
        lintianOutput: file('bad/lintian.txt'),
        summary: lintianData().summary,
      }),
  ],
  ['piuparts.one-file', () => make(CATEGORIES.piuparts, piupartsData, [])],
  [
    'system-tarball.one-file',
    () => make(CATEGORIES.systemTarball, { ...tarballData, filename: 'a' }, []),
  ],
  [
    'system-tarball.suffix',
    () => make(CATEGORIES.systemTarball, { ...tarballData, filename: 'a.tar.gz' }, ['a.tar.gz']),
  ],
  [
    'system-tarball.data',
    () =>
      make(CATEGORIES.systemTarball, { ...tarballData, mirror: 'not a url', filename: 'a' }, [
        'a.tar.xz',
      ]),
  ],
  [
    'repository-index.one-file',
    () => make(CATEGORIES.repositoryIndex, { path: 'main/Packages' }, []),
  ],
  [
    'repository-index.name-matches-path',
    () => make(CATEGORIES.repositoryIndex, { path: 'main/binary-all/Packages' }, ['Sources']),
  ],
  ['signing-input.at-least-one', () => make(CATEGORIES.signingInput, {}, [])],
  [
    'signing-output.data',
    () =>
      make(CATEGORIES.signingOutput, { purpose: 'nonsense', fingerprint: 'F', results: [] }, []),
  ],
  [
    'signing-key.no-files',
    () =>
      make(CATEGORIES.signingKey, { purpose: 'openpgp', fingerprint: 'F', public_key: 'k' }, [
        'key.asc',
      ]),
  ],
  ['autopkgtest.data', () => make(CATEGORIES.autopkgtest, { results: {} }, ['log'])],
  [
    'work-request-debug-logs.data',
    () => make(CATEGORIES.workRequestDebugLogs, { any: 1 }, ['cmd.log']),
  ],
];

function lintianData() {
  return {
    summary: {
      tags_count_by_severity: { error: 0 },
      package_filename: {},
      tags_found: [],
      overridden_tags_found: [],
      lintian_version: '2.120',
      distribution: 'trixie',
    },
  };
}
const piupartsData = {
  piuparts_version: '1.4',
  binary_packages: {},
  architecture: 'amd64',
  distribution: 'trixie',
};

describe('file-set rules and data models of every kind', () => {
  it.each(CASES)(
    '%s violated: a validation error naming the rule',
    async (rule, build, options) => {
      let error: unknown;
      try {
        validateLocalArtifact(await build(), options);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DebusineError);
      const e = error as DebusineError;
      expect(e.code).toBe('validation');
      expect(e.details.rule).toBe(rule);
      expect(e.message.length).toBeGreaterThan(15);
    },
  );

  it('accepts valid artifacts of the result kinds', async () => {
    const ok = [
      await make(CATEGORIES.blhc, {}, ['blhc.txt']),
      await make(CATEGORIES.piuparts, piupartsData, ['piuparts.txt']),
      await make(CATEGORIES.systemTarball, { ...tarballData, filename: 'a.tar.xz' }, ['a.tar.xz']),
      await createRepositoryIndex({ file: file('idx/Packages'), path: 'main/binary-all/Packages' }),
      await make(CATEGORIES.workRequestDebugLogs, {}, ['cmd.log', 'env.log']),
    ];
    for (const artifact of ok) expect(() => validateLocalArtifact(artifact)).not.toThrow();
  });
});
