/**
 * Debian packages made by Debian's own tools (dpkg-buildpackage, dpkg-source,
 * dpkg-genchanges, dpkg-deb) for the artifact tests: a tiny native source package with two
 * binary packages, its .dsc, .changes and .buildinfo, plus .debs whose control.tar uses
 * each compression. Built once per test process into a temporary directory.
 *
 * Each build carries a random nonce in its contents, so that the files are new to the
 * server and uploads really send bytes (the server deduplicates by SHA-256).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REQUIRED_TOOLS = ['dpkg-buildpackage', 'dpkg-source', 'dpkg-genchanges', 'dpkg-deb'];

export interface DebianFixtures {
  dir: string;
  nonce: string;
  source: string;
  version: string;
  dsc: string;
  sourceTarball: string;
  changes: string;
  buildinfo: string;
  /** hello-ddt_1.0_all.deb and hello-ddt-data_1.0_all.deb (control.tar.xz). */
  debs: string[];
  /** The same package with control.tar.gz, control.tar.zst and an uncompressed control.tar. */
  debByCompression: Record<'gzip' | 'zstd' | 'none', string>;
  udeb: string;
  buildLog: string;
}

/** Whether `tool` is a command on this machine's PATH. */
export function have(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why the fixtures cannot be built here, or undefined when they can. */
export function missingDebianTools(): string | undefined {
  const missing = REQUIRED_TOOLS.filter((tool) => !have(tool));
  if (missing.length === 0) return undefined;
  return `Debian packaging tools missing (${missing.join(', ')}): apt-get install dpkg-dev`;
}

const CONTROL = `Source: hello-ddt
Section: misc
Priority: optional
Maintainer: Debusine Desktop Tests <tests@example.org>
Standards-Version: 4.7.0
Rules-Requires-Root: no

Package: hello-ddt
Architecture: all
Description: tiny test package for Debusine Desktop
 A package built by the test suite.

Package: hello-ddt-data
Architecture: all
Description: tiny test data package
 Second binary package.
`;

const CHANGELOG = `hello-ddt (1.0) unstable; urgency=medium

  * Test package.

 -- Debusine Desktop Tests <tests@example.org>  Sat, 21 Nov 2026 12:00:00 +0000
`;

// dpkg-gencontrol and dpkg-deb only: no debhelper needed.
const RULES = `#!/usr/bin/make -f
%:
\t@true
binary binary-indep binary-arch:
\tfor p in hello-ddt hello-ddt-data; do \\
\t  rm -rf debian/$$p; mkdir -p debian/$$p/DEBIAN debian/$$p/usr/share/doc/$$p; \\
\t  cp hello.txt debian/$$p/usr/share/doc/$$p/; \\
\t  dpkg-gencontrol -p$$p -Pdebian/$$p; \\
\t  dpkg-deb -Zxz --build debian/$$p ..; \\
\tdone
clean:
\trm -rf debian/hello-ddt debian/hello-ddt-data debian/files
`;

let cached: DebianFixtures | undefined;

export function debianFixtures(): DebianFixtures {
  if (cached) return cached;
  const problem = missingDebianTools();
  if (problem) throw new Error(problem);
  const dir = mkdtempSync(join(tmpdir(), 'ddt-debian-'));
  const nonce = randomBytes(8).toString('hex');
  const tree = join(dir, 'hello-ddt-1.0');
  mkdirSync(join(tree, 'debian', 'source'), { recursive: true });
  writeFileSync(join(tree, 'hello.txt'), `hello ${nonce}\n`);
  writeFileSync(join(tree, 'debian', 'control'), CONTROL);
  writeFileSync(join(tree, 'debian', 'changelog'), CHANGELOG);
  writeFileSync(join(tree, 'debian', 'source', 'format'), '3.0 (native)\n');
  writeFileSync(join(tree, 'debian', 'rules'), RULES);
  chmodSync(join(tree, 'debian', 'rules'), 0o755);
  // -d: no build-dependency check (build-essential need not be installed); -F: source
  // and binaries, so that the .changes lists the .dsc, the tarball and both .debs.
  execFileSync('dpkg-buildpackage', ['-us', '-uc', '-d', '-F'], {
    cwd: tree,
    stdio: 'ignore',
    env: { ...process.env, DEB_BUILD_OPTIONS: '', LC_ALL: 'C.UTF-8' },
  });
  const debByCompression = {} as DebianFixtures['debByCompression'];
  for (const z of ['gzip', 'zstd', 'none'] as const) {
    const out = join(dir, `z-${z}`);
    mkdirSync(out);
    execFileSync('dpkg-deb', [`-Z${z}`, '--build', join(tree, 'debian', 'hello-ddt'), out], {
      stdio: 'ignore',
    });
    const name = readdirSync(out).find((f) => f.endsWith('.deb'));
    if (!name) throw new Error(`dpkg-deb -Z${z} built nothing`);
    debByCompression[z] = join(out, name);
  }
  const udebDir = join(dir, 'udeb');
  mkdirSync(udebDir);
  const udeb = join(udebDir, 'hello-ddt_1.0_all.udeb');
  copyFileSync(join(dir, 'hello-ddt_1.0_all.deb'), udeb);
  const logDir = join(dir, 'log');
  mkdirSync(logDir);
  const buildLog = join(logDir, 'hello-ddt_1.0_amd64.build');
  writeFileSync(
    buildLog,
    `sbuild (Debian sbuild) 0.85\nBuild nonce ${nonce}\nStatus: successful\n`,
  );
  const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim();
  cached = {
    dir,
    nonce,
    source: 'hello-ddt',
    version: '1.0',
    dsc: join(dir, 'hello-ddt_1.0.dsc'),
    sourceTarball: join(dir, 'hello-ddt_1.0.tar.xz'),
    changes: join(dir, `hello-ddt_1.0_${arch}.changes`),
    buildinfo: join(dir, `hello-ddt_1.0_${arch}.buildinfo`),
    debs: [join(dir, 'hello-ddt_1.0_all.deb'), join(dir, 'hello-ddt-data_1.0_all.deb')],
    debByCompression,
    udeb,
    buildLog,
  };
  return cached;
}
