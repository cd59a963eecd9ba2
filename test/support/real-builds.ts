/**
 * Real builds started as a developer starts them outside the app: the source package
 * imported and a workflow started with the sandbox's own Debusine client, as alice, in the
 * chroot.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { chownToAlice } from './dput-ng';
import type { SourcePackage } from './real-packages';

/** Runs the sandbox's Debusine client as alice in the chroot; its output. */
export function debusineAsAlice(chroot: string, args: string[]): string {
  return execFileSync(
    'chroot',
    [
      '--userspec=alice:alice',
      chroot,
      'env',
      '-i',
      'PATH=/usr/bin:/bin',
      'HOME=/home/alice',
      'debusine',
      ...args,
    ],
    { encoding: 'utf8' },
  );
}

/** Uploads the package with the client in the chroot and starts `sbuild` on it; the root. */
export function startBuild(
  chroot: string,
  workspace: string,
  pkg: SourcePackage,
  name: string,
): number {
  const dir = `/home/alice/build-${String(process.pid)}`;
  mkdirSync(join(chroot, dir), { recursive: true });
  for (const file of [pkg.dsc, pkg.tarball]) copyFileSync(file, join(chroot, dir, basename(file)));
  chownToAlice(chroot, dir);
  const imported = debusineAsAlice(chroot, [
    'artifact',
    'import-debian',
    '--workspace',
    workspace,
    `${dir}/${basename(pkg.dsc)}`,
  ]);
  const artifact = Number(/artifact_id: (\d+)/.exec(imported)?.[1]);
  expect(artifact).toBeGreaterThan(0);
  writeFileSync(
    join(chroot, dir, 'input.yaml'),
    `input:\n  source_artifact: ${String(artifact)}\n`,
  );
  chownToAlice(chroot, dir);
  const started = debusineAsAlice(chroot, [
    'workflow',
    'start',
    name,
    '--workspace',
    workspace,
    '--data',
    `${dir}/input.yaml`,
    '--yaml',
  ]);
  // The server holds the files now.
  rmSync(join(chroot, dir), { recursive: true, force: true });
  const id = Number(/^id: (\d+)$/m.exec(started)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}
