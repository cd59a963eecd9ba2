import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createAutopkgtest,
  createBlhc,
  createDebdiff,
  createLintian,
  createPiuparts,
  createRepositoryIndex,
  createSigningInput,
  createSigningOutput,
  createSystemTarball,
  createWorkRequestDebugLogs,
} from '../../src/main/artifacts/local/kinds-results';
import type { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { clientFor } from '../support/clients';
import { hasServer, testServer } from '../support/sandbox';

const dir = mkdtempSync(join(tmpdir(), 'ddt-kinds-'));
const nonce = String(Date.now());

function file(name: string, content = `${name} ${nonce}\n`): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const BUILDERS: [string, () => Promise<LocalArtifact>][] = [
  [
    'autopkgtest',
    () =>
      createAutopkgtest({
        artifactDirectory: (file('apt/log'), file('apt/binaries/x.deb'), join(dir, 'apt')),
        data: {
          results: { smoke: { status: 'PASS' } },
          cmdline: 'autopkgtest hello',
          source_package: { name: 'hello', version: '1.0', url: 'https://example.org/hello.dsc' },
          architecture: 'amd64',
          distribution: 'trixie',
        },
      }),
  ],
  [
    'blhc',
    () =>
      createBlhc({ blhcOutput: file('blhc.out'), buildLog: { source: 'hello', version: '1.0' } }),
  ],
  ['debdiff', () => createDebdiff({ debdiffOutput: file('dd.out'), original: 'a', new: 'b' })],
  [
    'lintian',
    () =>
      createLintian({
        analysis: file('analysis.json', `{"nonce": "${nonce}"}`),
        lintianOutput: file('lintian.out'),
        architecture: 'all',
        summary: {
          tags_count_by_severity: { error: 0, warning: 1 },
          package_filename: { hello: 'hello_1.0_all.deb' },
          tags_found: ['x'],
          overridden_tags_found: [],
          lintian_version: '2.120',
          distribution: 'trixie',
        },
      }),
  ],
  [
    'piuparts',
    () =>
      createPiuparts({
        piupartsOutput: file('piuparts.out'),
        data: {
          piuparts_version: '1.4',
          binary_packages: { hello: '1.0' },
          architecture: 'amd64',
          distribution: 'trixie',
        },
      }),
  ],
  [
    'system tarball',
    () =>
      createSystemTarball({
        tarball: file('system.tar.xz'),
        data: {
          vendor: 'debian',
          codename: 'trixie',
          mirror: 'https://deb.debian.org/debian',
          components: ['main'],
          pkglist: { base: '1' },
          architecture: 'amd64',
          with_dev: true,
          with_init: true,
        },
      }),
  ],
  [
    'repository index',
    () => createRepositoryIndex({ file: file('idx/Packages'), path: 'main/binary-amd64/Packages' }),
  ],
  [
    'signing input',
    () => createSigningInput({ files: [file('sign/a.efi')], baseDir: join(dir, 'sign') }),
  ],
  [
    'signing output',
    () =>
      createSigningOutput({
        purpose: 'uefi',
        fingerprint: 'ABCD',
        results: [{ file: 'a.efi', output_file: 'a.efi.sig' }],
        files: [file('signed/a.efi.sig')],
        baseDir: join(dir, 'signed'),
      }),
  ],
  ['work request debug logs', () => createWorkRequestDebugLogs({ files: [file('cmd.log')] })],
];

// The 0.16 server validates `data` strictly (extra keys → 400): each kind's data, as the
// builders make it, must be accepted as is.
describe.runIf(hasServer('current'))('every kind accepted by the current server', () => {
  const client = clientFor(testServer('current'));
  afterAll(async () => {
    await client.close();
  });

  it.each(BUILDERS)('%s', async (_name, build) => {
    const artifact = await build();
    const result = await uploadArtifact(client, artifact);
    expect(result.id).toBeGreaterThan(0);
    expect([...result.uploaded, ...result.present].sort()).toEqual(artifact.paths());
  });
});
