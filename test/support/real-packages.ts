/**
 * Source packages for the real-work tests, made with dpkg-source on this machine and built
 * by the sandbox's worker: one that builds (a C program, its man page, an autopkgtest, so
 * that every step of debian_pipeline has work to do), and one whose debian/rules exits 1
 * during the build.
 *
 * Only dpkg-source is needed here; the builds happen on the server. Each run gets a new
 * nonce in the sources, so the server builds new files rather than reusing stored ones.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SourcePackage {
  name: string;
  version: string;
  dsc: string;
  tarball: string;
  /**
   * The source-only upload of the package, as a Debian developer makes it to dput
   * (`dpkg-genchanges -S`, Distribution unstable from the changelog), unsigned.
   */
  changes: string;
  /** The text the built program prints, with this run's nonce in it. */
  greeting: string;
}

export interface RealPackages {
  dir: string;
  good: SourcePackage;
  failing: SourcePackage;
}

const MAINTAINER = 'Debusine Desktop Tests <tests@example.org>';

function changelog(name: string, version: string): string {
  return `${name} (${version}) unstable; urgency=medium

  * Built by the Debusine Desktop test suite.

 -- ${MAINTAINER}  Tue, 24 Nov 2026 12:00:00 +0000
`;
}

function copyright(name: string): string {
  return `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ${name}
Source: https://salsa.debian.org/

Files: *
Copyright: 2026 Debusine Desktop Tests <tests@example.org>
License: MIT

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy
 of this software and associated documentation files (the "Software"), to deal
 in the Software without restriction, including without limitation the rights
 to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in
 all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
 THE SOFTWARE.
`;
}

/** The package that builds: debhelper, hardening flags (for blhc), a man page, a test. */
function goodFiles(name: string, greeting: string): Record<string, string> {
  return {
    'hello.c': `#include <stdio.h>

int main(void)
{
\tputs("${greeting}");
\treturn 0;
}
`,
    // Compiler lines are printed in full: blhc reads them from the build log.
    Makefile: `prefix ?= /usr

all: ${name}

${name}: hello.c
\t$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ hello.c

install: ${name}
\tinstall -D -m 0755 ${name} $(DESTDIR)$(prefix)/bin/${name}

clean:
\trm -f ${name}
`,
    [`${name}.1`]: `.TH ${name.toUpperCase()} 1 2026-11-24 "${name}" "User Commands"
.SH NAME
${name} \\- print a greeting
.SH SYNOPSIS
.B ${name}
.SH DESCRIPTION
.B ${name}
prints a greeting and exits.
`,
    'debian/control': `Source: ${name}
Section: utils
Priority: optional
Maintainer: ${MAINTAINER}
Build-Depends: debhelper-compat (= 13)
Standards-Version: 4.7.0
Rules-Requires-Root: no

Package: ${name}
Architecture: any
Depends: \${shlibs:Depends}, \${misc:Depends}
Description: greeting program for the Debusine Desktop tests
 Prints a greeting. The Debusine Desktop test suite builds it on a real
 Debusine server to exercise sbuild, lintian, autopkgtest, piuparts and blhc.
`,
    'debian/rules': `#!/usr/bin/make -f
export DEB_BUILD_MAINT_OPTIONS = hardening=+all

%:
\tdh $@
`,
    'debian/copyright': copyright(name),
    [`debian/${name}.manpages`]: `${name}.1\n`,
    'debian/source/format': '3.0 (native)\n',
    'debian/tests/control': 'Tests: greets\nDepends: @\n',
    'debian/tests/greets': `#!/bin/sh
set -e
test "$(${name})" = "${greeting}"
echo "${name} greets"
`,
  };
}

/** The recipe of the failing packages' target that fails on purpose, saying so. */
function failsOnPurpose(name: string): string {
  return `\t@echo "${name}: this build fails on purpose"
\texit 1
`;
}

/**
 * The debian/rules of a failing package: `build`, the targets that build and fail (with
 * failsOnPurpose), then binary and clean targets that succeed. dpkg-buildpackage calls
 * only the binary target when the package needs no root.
 */
function failingRules(build: string): string {
  return `#!/usr/bin/make -f
${build}
binary binary-arch binary-indep: build-arch
\t@true

clean:
\t@true
`;
}

/** The package that fails: its build target exits 1, after clean has succeeded. */
function failingFiles(name: string, greeting: string): Record<string, string> {
  return {
    README: `${greeting}\n`,
    'debian/control': `Source: ${name}
Section: utils
Priority: optional
Maintainer: ${MAINTAINER}
Standards-Version: 4.7.0
Rules-Requires-Root: no

Package: ${name}
Architecture: any
Description: package whose build fails, for the Debusine Desktop tests
 Its debian/rules exits 1 during the build.
`,
    'debian/rules': failingRules(`build build-arch build-indep:
${failsOnPurpose(name)}`),
    'debian/copyright': copyright(name),
    'debian/source/format': '3.0 (native)\n',
  };
}

function sourcePackage(
  dir: string,
  name: string,
  version: string,
  greeting: string,
  files: Record<string, string>,
): SourcePackage {
  const tree = join(dir, `${name}-${version}`);
  for (const [path, text] of Object.entries({
    ...files,
    'debian/changelog': changelog(name, version),
  })) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  chmodSync(join(tree, 'debian/rules'), 0o755);
  if (files['debian/tests/greets'] !== undefined) {
    chmodSync(join(tree, 'debian/tests/greets'), 0o755);
  }
  const env = { ...process.env, LC_ALL: 'C.UTF-8' };
  execFileSync('dpkg-source', ['-b', `${name}-${version}`], { cwd: dir, stdio: 'ignore', env });
  // What `dpkg-buildpackage -S -d -us -uc` does after dpkg-source, without its clean step
  // (which would run debian/rules, and the failing package's rules fail on purpose).
  const changes = join(dir, `${name}_${version}_source.changes`);
  const text = execFileSync('dpkg-genchanges', ['-S', '-sa'], {
    cwd: tree,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  writeFileSync(changes, text);
  return {
    name,
    version,
    dsc: join(dir, `${name}_${version}.dsc`),
    tarball: join(dir, `${name}_${version}.tar.xz`),
    changes,
    greeting,
  };
}

let cached: RealPackages | undefined;

export function realPackages(): RealPackages {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'ddt-real-'));
  const nonce = randomBytes(6).toString('hex');
  const goodGreeting = `Hello from Debusine Desktop ${nonce}`;
  const failGreeting = `This package never builds ${nonce}`;
  cached = {
    dir,
    good: sourcePackage(
      dir,
      'ddt-hello',
      '1.0',
      goodGreeting,
      goodFiles('ddt-hello', goodGreeting),
    ),
    failing: sourcePackage(
      dir,
      'ddt-broken',
      '1.0',
      failGreeting,
      failingFiles('ddt-broken', failGreeting),
    ),
  };
  return cached;
}

/**
 * A package whose build prints a line a second for LINES seconds and then fails in a
 * sub-make, so that the top-level make of debian/rules fails too: a build running long
 * enough to be followed live, whose failure is known before its step ends.
 */
function slowFailingFiles(name: string, greeting: string, lines: number): Record<string, string> {
  const files = failingFiles(name, greeting);
  return {
    ...files,
    'debian/rules': failingRules(`build build-arch build-indep:
\t@for i in $$(seq 1 ${String(lines)}); do echo "${name}: step $$i of ${String(lines)}"; sleep 1; done
\t$(MAKE) -f debian/rules fail

fail:
${failsOnPurpose(name)}`),
  };
}

let slow: SourcePackage | undefined;

/** The slow failing package (see slowFailingFiles), made once per run. */
export function slowFailingPackage(lines = 40): SourcePackage {
  if (slow) return slow;
  const dir = mkdtempSync(join(tmpdir(), 'ddt-slow-'));
  const greeting = `This package fails slowly ${randomBytes(6).toString('hex')}`;
  slow = sourcePackage(
    dir,
    'ddt-slow',
    '1.0',
    greeting,
    slowFailingFiles('ddt-slow', greeting, lines),
  );
  return slow;
}
