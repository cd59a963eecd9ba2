/**
 * A realistic source package, fresh for each run: an orig tarball of random data (so that
 * it cannot be deduplicated or compressed away) plus a small debian/ directory, built with
 * `dpkg-source -b` (format 3.0 (quilt)): a .dsc, the .orig.tar.gz and a .debian.tar.xz.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeRandomFile } from './data';

export interface SourcePackage {
  dsc: string;
  /** File name → host path, the .dsc included. */
  files: Record<string, string>;
}

const NAME = 'bench-src';
const VERSION = '1.0';

export async function makeSourcePackage(dir: string, origSize: number): Promise<SourcePackage> {
  const nonce = randomBytes(8).toString('hex');
  const top = join(dir, `src-${nonce}`);
  const tree = join(top, `${NAME}-${VERSION}`);
  mkdirSync(tree, { recursive: true });
  await writeRandomFile(join(tree, 'data.bin'), origSize);
  writeFileSync(join(tree, 'README'), `Bench source ${nonce}\n`);
  const orig = `${NAME}_${VERSION}.orig.tar.gz`;
  execFileSync('sh', ['-c', `tar -cf - ${NAME}-${VERSION} | gzip -1 > ${orig}`], { cwd: top });
  mkdirSync(join(tree, 'debian', 'source'), { recursive: true });
  writeFileSync(
    join(tree, 'debian', 'control'),
    `Source: ${NAME}\nSection: misc\nPriority: optional\nMaintainer: Bench <bench@example.org>\n` +
      `Standards-Version: 4.7.0\nRules-Requires-Root: no\n\nPackage: ${NAME}\nArchitecture: all\n` +
      `Description: benchmark source package\n Random data ${nonce}.\n`,
  );
  writeFileSync(
    join(tree, 'debian', 'changelog'),
    `${NAME} (${VERSION}-1) unstable; urgency=medium\n\n  * Bench ${nonce}.\n\n` +
      ` -- Bench <bench@example.org>  Sat, 21 Nov 2026 12:00:00 +0000\n`,
  );
  writeFileSync(join(tree, 'debian', 'rules'), '#!/usr/bin/make -f\n%:\n\t@true\n');
  chmodSync(join(tree, 'debian', 'rules'), 0o755);
  writeFileSync(join(tree, 'debian', 'copyright'), `Bench ${nonce}\n`);
  writeFileSync(join(tree, 'debian', 'source', 'format'), '3.0 (quilt)\n');
  execFileSync('dpkg-source', ['-b', `${NAME}-${VERSION}`], {
    cwd: top,
    stdio: 'ignore',
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  const dscName = `${NAME}_${VERSION}-1.dsc`;
  const names = [dscName, orig, `${NAME}_${VERSION}-1.debian.tar.xz`];
  return {
    dsc: join(top, dscName),
    files: Object.fromEntries(names.map((n) => [n, join(top, n)])),
  };
}

/** A package's upload with its source and one binary package, as dput would send it. */
export interface ChangesUpload {
  changes: string;
  /** File name → host path, the .changes included. */
  files: Record<string, string>;
}

/**
 * makeSourcePackage's package, built (`dpkg-buildpackage -us -uc -d`) into a .changes that
 * lists the source and one arch-all .deb holding the orig's random data (gzip -1, which
 * leaves random data as big as it is): about twice `origSize` to send. The rules use
 * dpkg's own tools only.
 */
export async function makeChangesUpload(dir: string, origSize: number): Promise<ChangesUpload> {
  const pkg = await makeSourcePackage(dir, origSize);
  const top = join(pkg.dsc, '..');
  const tree = join(top, `${NAME}-${VERSION}`);
  writeFileSync(
    join(tree, 'debian', 'rules'),
    [
      '#!/usr/bin/make -f',
      'build build-arch build-indep:',
      '\t@true',
      'binary binary-arch binary-indep:',
      `\tmkdir -p debian/tmp/DEBIAN debian/tmp/usr/share/${NAME}`,
      `\tcp data.bin debian/tmp/usr/share/${NAME}/`,
      `\tdpkg-gencontrol -p${NAME} -Pdebian/tmp`,
      '\tdpkg-deb -Zgzip -z1 --build debian/tmp ..',
      'clean:',
      '\trm -rf debian/tmp debian/files',
      '',
    ].join('\n'),
  );
  chmodSync(join(tree, 'debian', 'rules'), 0o755);
  execFileSync('dpkg-buildpackage', ['-us', '-uc', '-d', '-b', '--no-pre-clean'], {
    cwd: tree,
    stdio: 'ignore',
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  // The binary build's own .changes lists only the .deb: this one lists the source too.
  const multi = `${NAME}_${VERSION}-1_multi.changes`;
  const text = execFileSync('dpkg-genchanges', ['-sa'], {
    cwd: tree,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  writeFileSync(join(top, multi), text);
  const files = /^Files:\n((?: .*\n?)*)/m.exec(text)?.[1] ?? '';
  const listed = files
    .split('\n')
    .map((line) => line.trim().split(/\s+/).at(-1) ?? '')
    .filter(Boolean);
  const names = [multi, ...listed];
  return {
    changes: join(top, multi),
    files: Object.fromEntries(names.map((n) => [n, join(top, n)])),
  };
}
