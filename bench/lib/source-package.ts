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
