/**
 * A throwaway Debian system to run apt in, as a user of a repository would: the sandbox's
 * own trixie build environment (the `debian:system-tarball` its sbuild uses, variant
 * buildd, with apt and dpkg), unpacked into a temporary directory and entered with chroot.
 * It shares this machine's network, so the sandbox's archive host on localhost answers.
 * Debian's own sources are taken out: apt sees only the repository under test.
 *
 * The tarball is downloaded once per artifact and kept under /var/tmp, as the sandboxes
 * keep their chroots; each root unpacked from it is removed by `close`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
  chmodSync,
  copyFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { DebusineClient } from '../../src/main/api/client';
import { downloadArtifactFile } from '../../src/main/artifacts/transfer/download';

const CACHE = '/var/tmp/debusine-desktop-apt-root';
/** The environment the sandbox's real-work set-up makes (test/debusine-server/real-work.sh). */
const ENVIRONMENT =
  'debian@debian:environments/match:codename=trixie:architecture=amd64:format=tarball:backend=unshare';

export interface AptRun {
  status: number;
  stdout: string;
  stderr: string;
}

export interface AptRoot {
  readonly dir: string;
  /** Runs a program inside, as root, with a clean environment. */
  run(args: readonly string[]): AptRun;
  /** Writes a file inside (`path` absolute within the root). */
  write(path: string, text: string, mode?: number): void;
  /** Copies a file of this machine inside. */
  copyIn(from: string, path: string): void;
  close(): void;
}

/** The tarball of the sandbox's build environment, downloaded once. */
async function environmentTarball(client: DebusineClient): Promise<string> {
  const found = await client.lookupSingle({
    lookup: ENVIRONMENT,
    workspace: 'System',
    expect_type: 'artifact',
  });
  const id = (found as { artifact?: unknown }).artifact;
  if (typeof id !== 'number') throw new Error(`the sandbox has no ${ENVIRONMENT}`);
  const file = join(CACHE, `${String(id)}.tar.xz`);
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    await downloadArtifactFile(client, id, 'system.tar.xz', file);
  }
  return file;
}

export async function aptRoot(client: DebusineClient): Promise<AptRoot> {
  const tarball = await environmentTarball(client);
  const dir = mkdtempSync('/var/tmp/ddt-apt-root-');
  execFileSync('tar', ['-xf', tarball, '-C', dir], { stdio: 'ignore' });
  // The tarball is made for unshare, which makes /dev at each start; chroot does not.
  for (const [name, minor] of [
    ['null', 3],
    ['zero', 5],
    ['random', 8],
    ['urandom', 9],
  ] as const) {
    const node = join(dir, 'dev', name);
    if (!existsSync(node)) {
      execFileSync('mknod', ['-m', '666', node, 'c', '1', String(minor)]);
    }
  }
  rmSync(join(dir, 'etc/apt/sources.list'), { force: true });
  rmSync(join(dir, 'etc/apt/sources.list.d'), { recursive: true, force: true });
  mkdirSync(join(dir, 'etc/apt/sources.list.d'), { recursive: true });
  writeFileSync(join(dir, 'etc/hosts'), '127.0.0.1 localhost\n::1 localhost\n');
  const inside = (path: string): string => join(dir, path.replace(/^\/+/, ''));
  return {
    dir,
    run: (args) => {
      const result = spawnSync(
        'chroot',
        [
          dir,
          '/usr/bin/env',
          '-i',
          'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
          'LANG=C.UTF-8',
          'DEBIAN_FRONTEND=noninteractive',
          ...args,
        ],
        { encoding: 'utf8', timeout: 300_000 },
      );
      return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    },
    write: (path, text, mode = 0o644) => {
      mkdirSync(dirname(inside(path)), { recursive: true });
      writeFileSync(inside(path), text, { mode });
      chmodSync(inside(path), mode);
    },
    copyIn: (from, path) => {
      // The build environment has no ca-certificates: not even /etc/ssl.
      mkdirSync(dirname(inside(path)), { recursive: true });
      copyFileSync(from, inside(path));
    },
    close: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
