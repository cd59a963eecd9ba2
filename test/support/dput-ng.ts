/**
 * dput-ng in the current sandbox's chroot, as its user alice (whose Debusine client signs
 * in as alice), with a profile the caller writes into her ~/.dput.d: the peer the app's
 * uploads are compared with, in the tests and the bench.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** alice is a user of the chroot, not of this machine: chown runs in there. */
export function chownToAlice(root: string, pathInChroot: string): void {
  const done = spawnSync('chroot', [root, 'chown', '-R', 'alice:alice', pathInChroot]);
  if (done.status !== 0) throw new Error(`chown ${pathInChroot}: ${done.stderr.toString()}`);
}

/**
 * The sandbox's profile for uploads alone: the hooks that check and start a workflow are
 * left out (dput-ng cannot upload without starting one otherwise); dput-ng's own checks
 * stay. What the comparisons time or compare is the artifacts, not the workflow.
 */
export function uploadOnlyProfile(scope: string, workspace: string): object {
  return {
    method: 'debusine',
    meta: 'debusine',
    fqdn: '127.0.0.1',
    incoming: '/',
    debusine_scope: scope,
    debusine_workspace: workspace,
    allow_unsigned_uploads: true,
    hooks: ['checksum', 'suite-mismatch'],
  };
}

/** Writes `~alice/.dput.d/profiles/NAME.json`. */
export function writeDputProfile(root: string, name: string, profile: object): void {
  const profiles = join(root, 'home/alice/.dput.d/profiles');
  mkdirSync(profiles, { recursive: true });
  writeFileSync(join(profiles, `${name}.json`), JSON.stringify(profile));
  chownToAlice(root, '/home/alice/.dput.d');
}

/**
 * `dput [-U] HOST CHANGES` as alice; the output (dput-ng logs on its standard error), and
 * an error when it fails. `-U`: no upload log written beside the .changes.
 */
export function dputAsAlice(root: string, host: string, changesInChroot: string): string {
  const run = spawnSync(
    'chroot',
    [
      '--userspec=alice:alice',
      root,
      'env',
      '-i',
      'PATH=/usr/bin:/bin',
      'HOME=/home/alice',
      'LANG=C.UTF-8',
      'dput',
      '-U',
      host,
      changesInChroot,
    ],
    { encoding: 'utf8', timeout: 300_000 },
  );
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`dput ${host} failed (${String(run.status)}): ${output}`);
  return output;
}
