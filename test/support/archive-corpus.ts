/**
 * Real Debian source packages from the archive the sandboxes use, built here the ways
 * Debian developers build their uploads: the corpus that the app's uploads are compared
 * with dput-ng's on (test/integration/dput-corpus.test.ts).
 *
 * Each package is fetched by file from the pool (its .dsc pinned by SHA-256, its other files
 * checked against the .dsc by dpkg-source), and each upload is built in a folder of its
 * own, as a developer's build folder holds it: the .changes, the files it lists, and the
 * orig tarball the .dsc lists even where the .changes does not. Downloads and builds are
 * kept in the data directory, so that a machine fetches and builds them once.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bump when what a build makes changes, so that older cached builds are made again. */
const RECIPE = 1;

const MIRROR = process.env.DEBUSINE_SANDBOX_MIRROR ?? 'http://deb.debian.org/debian';

/** The tools and build dependencies the corpus is built with, as Debian package names. */
export const CORPUS_PACKAGES = [
  'build-essential',
  'debhelper',
  'devscripts',
  'help2man',
  'texinfo',
  'curl',
];

interface ArchivePackage {
  /** What the package stands for in the corpus. */
  format: string;
  /** The pool folder and the .dsc's name, and the .dsc's SHA-256 as the archive lists it. */
  pool: string;
  dsc: string;
  sha256: string;
  /** The version of the new Debian revision a developer would upload next. */
  next: string;
}

/** Chosen for their formats and for small builds with few build dependencies (bookworm). */
export const ARCHIVE_PACKAGES: Record<string, ArchivePackage> = {
  hello: {
    format: '3.0 (quilt), orig tarball and its .asc',
    pool: 'pool/main/h/hello',
    dsc: 'hello_2.10-3.dsc',
    sha256: '75296f5ef618ae2f1849e22b142a2b5ab52c452ebefa4e7b0564c44617db3790',
    next: '2.10-4',
  },
  pwgen: {
    format: '3.0 (quilt), orig and .asc, a .udeb among its binaries',
    pool: 'pool/main/p/pwgen',
    dsc: 'pwgen_2.08-2.dsc',
    sha256: '1926555d97e8dd3f6cb226e8936ea310d5b1e5fc73650fe65f8fa90514a23690',
    next: '2.08-3',
  },
  'mescc-tools': {
    format: '3.0 (quilt) with a component tarball (orig-M2libc)',
    pool: 'pool/main/m/mescc-tools',
    dsc: 'mescc-tools_1.4.0-1.dsc',
    sha256: 'f05d7b6205beb0b0d431ed97fc8056fdaf7120b275afddba214ee9f72da7e438',
    next: '1.4.0-2',
  },
  hostname: {
    format: '3.0 (native)',
    pool: 'pool/main/h/hostname',
    dsc: 'hostname_3.23+nmu1.dsc',
    sha256: '56f2189eaeee638e86d29a05356e7001632e33b2132a41a4634a9ff839264ea6',
    next: '3.23+nmu2',
  },
  mbw: {
    format: '1.0 with a .diff.gz',
    pool: 'pool/main/m/mbw',
    dsc: 'mbw_1.2.2-1.1.dsc',
    sha256: '9667df33b82d78e579c5949634e5c0f498a9aeaa2859c00ffb1c8628020cac79',
    next: '1.2.2-1.2',
  },
};

/** How an upload was built, as `dpkg-buildpackage` is told. */
export type BuildWay = 'source-new-revision' | 'source-with-orig' | 'binary-only' | 'full';

export const BUILD_WAYS: Record<BuildWay, string> = {
  'source-new-revision': 'dpkg-buildpackage -S -d on a new Debian revision (-sd: no orig)',
  'source-with-orig': 'dpkg-buildpackage -S -sa -d',
  'binary-only': 'dpkg-buildpackage -B',
  full: 'dpkg-buildpackage -F',
};

export interface CorpusUpload {
  /** `package/way`, for test names. */
  name: string;
  format: string;
  way: BuildWay;
  /** The build folder: the .changes and every file dput-ng reads for it. */
  dir: string;
  changes: string;
}

/** Where downloads and builds are kept: the sandboxes' data directory, else a temporary one. */
function cacheRoot(): string {
  const wanted = process.env.DEBUSINE_DESKTOP_CORPUS ?? '/var/lib/debusine-desktop/corpus';
  try {
    mkdirSync(wanted, { recursive: true });
    accessSync(wanted, constants.W_OK);
    return wanted;
  } catch {
    const fallback = join(tmpdir(), 'debusine-desktop-corpus');
    mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}

function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): void {
  try {
    execFileSync(command, args, {
      cwd,
      env: { ...process.env, LC_ALL: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    const tail = `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`.slice(-4000);
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${tail}`, {
      cause: error,
    });
  }
}

/** The names of the files a .dsc lists (its Files field). */
function dscFiles(dsc: string): string[] {
  const text = readFileSync(dsc, 'utf8');
  const block = /^Files:\n((?: .+\n)+)/m.exec(text)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[2])
    .filter((name): name is string => name !== undefined && name !== '');
}

/** The package's files from the pool, each fetched once per machine. */
function fetchPackage(root: string, pkg: ArchivePackage): string {
  const dir = join(root, 'downloads');
  mkdirSync(dir, { recursive: true });
  const fetch = (name: string) => {
    const target = join(dir, name);
    if (existsSync(target)) return;
    // Per process: a test file and another building at once each fetch to their own name.
    const partial = `${target}.${String(process.pid)}.part`;
    run('curl', ['-sSf', '--retry', '3', '-o', partial, `${MIRROR}/${pkg.pool}/${name}`], dir);
    renameSync(partial, target);
  };
  fetch(pkg.dsc);
  const dsc = join(dir, pkg.dsc);
  if (sha256Of(dsc) !== pkg.sha256) {
    rmSync(dsc);
    throw new Error(`${pkg.dsc} from ${MIRROR} is not the one the archive lists (SHA-256)`);
  }
  for (const name of dscFiles(dsc)) fetch(name);
  return dsc;
}

/** A build folder with the package unpacked in it (dpkg-source checks every file's checksum). */
function unpack(downloads: string, dsc: string, folder: string, tree: string): void {
  mkdirSync(folder, { recursive: true });
  for (const name of [dsc, ...dscFiles(join(downloads, dsc))]) {
    copyFileSync(join(downloads, name), join(folder, name));
  }
  run('dpkg-source', ['--no-check', '-x', dsc, tree], folder);
  // The .dsc and its files stay: dpkg-source -b and dpkg-genchanges look for them here.
}

const BUILD_ENV = {
  DEB_BUILD_OPTIONS: 'nocheck parallel=2',
  DEBFULLNAME: 'Debusine Desktop Tests',
  DEBEMAIL: 'tests@example.org',
};

/**
 * Moves a finished build folder into place. Two processes may build the same upload at
 * once (an integration and an e2e file): each builds in a folder of its own, and the one
 * that comes second keeps the first one's.
 */
function settle(folder: string, done: string, way: BuildWay): string {
  writeFileSync(join(folder, '.complete'), `${BUILD_WAYS[way]}\n`);
  mkdirSync(join(done, '..'), { recursive: true });
  try {
    renameSync(folder, done);
  } catch (error) {
    if (!existsSync(join(done, '.complete'))) throw error;
    rmSync(folder, { recursive: true, force: true });
  }
  return done;
}

function build(root: string, name: string, pkg: ArchivePackage, way: BuildWay): string {
  const downloads = join(root, 'downloads');
  const done = join(root, `builds-${String(RECIPE)}`, name, way);
  if (existsSync(join(done, '.complete'))) return done;
  const folder = `${done}.new-${String(process.pid)}`;
  rmSync(folder, { recursive: true, force: true });
  const tree = join(folder, 'tree');
  unpack(downloads, pkg.dsc, folder, tree);
  const buildpackage = (args: string[]) =>
    run('dpkg-buildpackage', ['-us', '-uc', ...args], tree, BUILD_ENV);
  switch (way) {
    case 'source-new-revision':
      run('dch', ['-v', pkg.next, '-D', 'unstable', 'New Debian revision.'], tree, BUILD_ENV);
      buildpackage(['-S', '-d']);
      break;
    case 'source-with-orig':
      buildpackage(['-S', '-sa', '-d']);
      break;
    case 'binary-only':
      buildpackage(['-B']);
      break;
    case 'full':
      buildpackage(['-F']);
      break;
  }
  rmSync(tree, { recursive: true, force: true });
  return settle(folder, done, way);
}

/**
 * A package of the tests' own whose full build holds what no small package of the archive
 * holds at once: an arch-any .deb with its -dbgsym, an arch-all .deb and a .udeb.
 */
const MULTI: Record<string, string> = {
  'hello.c': '#include <stdio.h>\nint main(void) { puts("ddt-multi"); return 0; }\n',
  Makefile: 'all: ddt-multi\nddt-multi: hello.c\n\t$(CC) $(CFLAGS) $(LDFLAGS) -o $@ hello.c\n',
  'debian/control': `Source: ddt-multi
Section: misc
Priority: optional
Maintainer: Debusine Desktop Tests <tests@example.org>
Build-Depends: debhelper-compat (= 13)
Standards-Version: 4.7.0
Rules-Requires-Root: no

Package: ddt-multi
Architecture: any
Depends: \${shlibs:Depends}, \${misc:Depends}, ddt-multi-data
Description: program of the Debusine Desktop corpus
 Prints its name.

Package: ddt-multi-data
Architecture: all
Depends: \${misc:Depends}
Description: data of the Debusine Desktop corpus
 A file.

Package: ddt-multi-udeb
Package-Type: udeb
Section: debian-installer
Architecture: any
Description: installer part of the Debusine Desktop corpus
`,
  'debian/rules': '#!/usr/bin/make -f\n%:\n\tdh $@\n',
  'debian/ddt-multi.install': 'ddt-multi usr/bin\n',
  'debian/ddt-multi-data.install': 'Makefile usr/share/ddt-multi\n',
  'debian/ddt-multi-udeb.install': 'ddt-multi bin\n',
  'debian/source/format': '3.0 (native)\n',
  'debian/copyright': 'Files: *\nCopyright: 2026 Debusine Desktop Tests\nLicense: MIT\n',
  'debian/changelog': `ddt-multi (1.0) unstable; urgency=medium

  * First upload.

 -- Debusine Desktop Tests <tests@example.org>  Sat, 28 Nov 2026 12:00:00 +0000
`,
};

function buildMulti(root: string): string {
  const done = join(root, `builds-${String(RECIPE)}`, 'ddt-multi', 'full');
  if (existsSync(join(done, '.complete'))) return done;
  const folder = `${done}.new-${String(process.pid)}`;
  rmSync(folder, { recursive: true, force: true });
  const tree = join(folder, 'ddt-multi-1.0');
  for (const [path, text] of Object.entries(MULTI)) {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    writeFileSync(join(tree, path), text, { mode: path === 'debian/rules' ? 0o755 : 0o644 });
  }
  run('dpkg-buildpackage', ['-us', '-uc', '-F'], tree, BUILD_ENV);
  rmSync(tree, { recursive: true, force: true });
  return settle(folder, done, 'full');
}

function changesIn(dir: string): string {
  const found = readdirSync(dir).filter((f) => f.endsWith('.changes'));
  const [only] = found;
  if (only === undefined || found.length !== 1) {
    throw new Error(`${dir} holds ${String(found.length)} .changes files, not one`);
  }
  return join(dir, only);
}

/**
 * Every upload of the corpus (or those named, as `package/way`), built or taken from the
 * cache: each archive package in each way (a native package has no orig to leave out, so
 * no second source-only upload).
 */
export function archiveCorpus(only?: readonly string[]): CorpusUpload[] {
  const root = cacheRoot();
  const uploads: CorpusUpload[] = [];
  const wanted = (name: string) => only === undefined || only.includes(name);
  for (const [name, pkg] of Object.entries(ARCHIVE_PACKAGES)) {
    const ways = (Object.keys(BUILD_WAYS) as BuildWay[]).filter(
      (way) =>
        wanted(`${name}/${way}`) && !(way === 'source-with-orig' && pkg.format === '3.0 (native)'),
    );
    if (ways.length > 0) fetchPackage(root, pkg);
    for (const way of ways) {
      const dir = build(root, name, pkg, way);
      uploads.push({
        name: `${name}/${way}`,
        format: pkg.format,
        way,
        dir,
        changes: changesIn(dir),
      });
    }
  }
  if (!wanted('ddt-multi/full')) return uploads;
  const multi = buildMulti(root);
  uploads.push({
    name: 'ddt-multi/full',
    format: '3.0 (native): arch any with -dbgsym, arch all and a .udeb, in one upload',
    way: 'full',
    dir: multi,
    changes: changesIn(multi),
  });
  return uploads;
}

/** Why the corpus cannot be built here, or undefined when it can. */
export function missingCorpusTools(): string | undefined {
  const missing = ['dpkg-buildpackage', 'dch', 'dh', 'help2man', 'makeinfo', 'curl', 'gcc'].filter(
    (tool) => {
      try {
        execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
        return false;
      } catch {
        return true;
      }
    },
  );
  return missing.length === 0
    ? undefined
    : `tools missing to build the corpus (${missing.join(', ')}): apt-get install ${CORPUS_PACKAGES.join(' ')}`;
}
