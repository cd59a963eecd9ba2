/**
 * A 3.0 (quilt) source package at its second Debian revision, built as a developer builds
 * the upload of a new revision: an orig tarball and its detached signature (`.asc`), then
 * `dpkg-source -b` and `dpkg-genchanges -S` with its default for a `-2` revision (`-sd`),
 * so that the .changes lists the .dsc and the debian tarball but not the orig, which the
 * .dsc lists. Also the same upload with `-sa`, which lists the orig too.
 *
 * The orig holds random bytes made per call, so that no server has seen it: a server that
 * holds a file lets later artifacts declare it remote, which would hide a missing upload.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface QuiltPackage {
  dir: string;
  name: string;
  version: string;
  dsc: string;
  orig: string;
  origAsc: string;
  debianTarball: string;
  /** Source-only, without the orig: what `dpkg-buildpackage -S` makes for a `-2` revision. */
  changes: string;
  /** Source-only with the orig (`-sa`), in a folder of its own with the same files. */
  changesWithOrig: string;
}

const MAINTAINER = 'Debusine Desktop Tests <tests@example.org>';

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export function quiltPackage(name = 'ddt-quilt'): QuiltPackage {
  const dir = mkdtempSync(join(tmpdir(), 'ddt-quilt-'));
  const upstream = '1.0';
  const version = `${upstream}-2`;
  const nonce = randomBytes(16).toString('hex');
  const env = { ...process.env, LC_ALL: 'C.UTF-8' };
  const tree = join(dir, `${name}-${upstream}`);
  write(tree, { README: `${name} ${nonce}\n`, 'data.txt': randomBytes(4096).toString('hex') });
  const orig = join(dir, `${name}_${upstream}.orig.tar.gz`);
  execFileSync('tar', ['-czf', orig, '-C', dir, `${name}-${upstream}`], { env });
  // A detached signature's shape is all dpkg-source checks here: it is uploaded, not verified.
  const origAsc = `${orig}.asc`;
  writeFileSync(
    origAsc,
    `-----BEGIN PGP SIGNATURE-----\n\n${randomBytes(96).toString('base64')}\n-----END PGP SIGNATURE-----\n`,
  );
  write(tree, {
    'debian/control': `Source: ${name}
Section: misc
Priority: optional
Maintainer: ${MAINTAINER}
Standards-Version: 4.7.0
Rules-Requires-Root: no

Package: ${name}
Architecture: all
Description: quilt package of the Debusine Desktop tests
 Its orig tarball is not in the .changes of its second revision.
`,
    'debian/rules': '#!/usr/bin/make -f\n%:\n\tdh $@\n',
    'debian/source/format': '3.0 (quilt)\n',
    'debian/copyright': 'Files: *\nCopyright: 2026 Debusine Desktop Tests\nLicense: MIT\n',
    'debian/changelog': `${name} (${version}) unstable; urgency=medium

  * Second revision.

 -- ${MAINTAINER}  Sat, 28 Nov 2026 12:00:00 +0000

${name} (${upstream}-1) unstable; urgency=medium

  * First upload.

 -- ${MAINTAINER}  Fri, 27 Nov 2026 12:00:00 +0000
`,
  });
  chmodSync(join(tree, 'debian/rules'), 0o755);
  execFileSync('dpkg-source', ['-b', `${name}-${upstream}`], { cwd: dir, stdio: 'ignore', env });
  const genchanges = (args: string[]) =>
    execFileSync('dpkg-genchanges', ['-S', ...args], {
      cwd: tree,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  const changes = join(dir, `${name}_${version}_source.changes`);
  writeFileSync(changes, genchanges([]));
  const withOrig = mkdtempSync(join(tmpdir(), 'ddt-quilt-sa-'));
  const dsc = join(dir, `${name}_${version}.dsc`);
  const debianTarball = join(dir, `${name}_${version}.debian.tar.xz`);
  for (const file of [dsc, orig, origAsc, debianTarball]) {
    execFileSync('cp', [file, withOrig]);
  }
  const changesWithOrig = join(withOrig, `${name}_${version}_source.changes`);
  writeFileSync(changesWithOrig, genchanges(['-sa']));
  return { dir, name, version, dsc, orig, origAsc, debianTarball, changes, changesWithOrig };
}
