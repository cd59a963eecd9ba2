/**
 * The sbuild log analyser on logs in the format current sbuild writes (boxed headers with
 * their dates, the Summary at the end), fixtures in test/unit/fixtures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseSbuildLog, isSbuildLog } from '../../src/main/logs/sbuild-log';

const fixture = (name: string): string[] =>
  readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8').split('\n');

const SUCCESS = fixture('sbuild-hello-success.build');
const FAILED = fixture('sbuild-failing-build.build');

const lineOf = (lines: string[], text: string): number => {
  const at = lines.indexOf(text);
  if (at === -1) throw new Error(`no line ${text}`);
  return at;
};

describe('the sbuild log analyser', () => {
  it('outlines a successful build and reads its summary', () => {
    const analysis = analyseSbuildLog(SUCCESS);
    const sections = analysis.outline.filter((e) => e.kind === 'section').map((e) => e.title);
    expect(sections).toEqual([
      'Update chroot',
      'Fetch source files',
      'Install package build dependencies',
      'Check architectures',
      'Build environment',
      'Build',
      'Changes',
      'Package contents',
      'Cleanup',
      'Summary',
    ]);
    const [top] = analysis.outline;
    expect(top).toEqual({
      title: 'hello 2.10-5 (amd64)',
      kind: 'package',
      date: 'Tue, 18 Nov 2025 10:12:03 +0000',
      // The top border of the box, so that the whole header shows.
      line:
        lineOf(
          SUCCESS,
          '| hello 2.10-5 (amd64)                         Tue, 18 Nov 2025 10:12:03 +0000 |',
        ) - 1,
    });
    const update = analysis.outline.find((e) => e.title === 'Update chroot');
    expect(update?.date).toBe('Tue, 18 Nov 2025 10:12:04 +0000');
    const build = analysis.outline.find((e) => e.title === 'Build');
    expect(SUCCESS[build?.line ?? -1]).toMatch(/^\+-+\+$/);
    expect(SUCCESS[(build?.line ?? -1) + 1]).toMatch(/^\| Build +\|$/);
    const steps = analysis.outline.filter((e) => e.kind === 'step').map((e) => e.title);
    expect(steps).toContain('dpkg-buildpackage');
    expect(steps).toContain('Unpack source');
    const step = analysis.outline.find((e) => e.title === 'dpkg-buildpackage');
    expect(SUCCESS[step?.line ?? -1]).toBe('dpkg-buildpackage');

    expect(analysis.summary).toMatchObject({
      status: 'successful',
      failStage: null,
      buildTime: 41,
      duration: 58,
      package: 'hello',
      version: '2.10-5',
      distribution: 'trixie',
      architecture: 'amd64',
    });
    expect(analysis.summary.fields['Build-Space']).toBe('6152');
    const summaryLines = analysis.outline.filter((e) => e.kind === 'summary');
    expect(summaryLines.map((e) => e.title)).toEqual([
      'Build-Time: 41',
      'Status: successful',
      'Build needed 00:00:58, 6152k disk space',
    ]);
    expect(summaryLines.map((e) => SUCCESS[e.line])).toEqual(summaryLines.map((e) => e.title));
    // `# ERROR: 0` of the test summary and -Werror flags are not errors.
    expect(analysis.errorLines).toEqual([]);
    expect(analysis.error).toBeNull();
  });

  it('finds where a failed build broke, not the summary that says it failed', () => {
    const analysis = analyseSbuildLog(FAILED);
    expect(analysis.summary).toMatchObject({ status: 'attempted', failStage: 'build' });
    const broke = lineOf(FAILED, 'make: *** [debian/rules:3: binary] Error 2');
    expect(analysis.error).toEqual({
      line: broke,
      text: 'make: *** [debian/rules:3: binary] Error 2',
    });
    const summary = analysis.outline.find((e) => e.title === 'Summary')?.line ?? 0;
    expect(analysis.error?.line).toBeLessThan(summary);
    expect(analysis.outline.filter((e) => e.kind === 'summary').map((e) => e.title)).toEqual([
      'Build-Time: 0',
      'Fail-Stage: build',
      'Status: attempted',
      'Build needed 00:00:17, 24k disk space',
    ]);
    const dpkgError = lineOf(
      FAILED,
      'dpkg-buildpackage: error: debian/rules binary subprocess returned exit status 2',
    );
    const died = FAILED.flatMap((t, i) =>
      t === 'E: Build failure (dpkg-buildpackage died)' ? [i] : [],
    );
    expect(died).toHaveLength(3);
    expect(analysis.errorLines).toEqual([broke, dpkgError, ...died]);
    expect(analysis.errorLineCount).toBe(5);
  });

  it('prefers the compiler error to the make lines that follow it', () => {
    const at = lineOf(FAILED, 'make: *** [debian/rules:3: binary] Error 2');
    const compile = [
      "make[1]: Entering directory '/<<PKGBUILDDIR>>'",
      'gcc -g -O2 -c -o src/hello.o src/hello.c',
      "src/hello.c:42:5: error: implicit declaration of function 'greet' [-Wimplicit-function-declaration]",
      '   42 |     greet ();',
      '      |     ^~~~~',
      'make[1]: *** [Makefile:1422: src/hello.o] Error 1',
      "make[1]: Leaving directory '/<<PKGBUILDDIR>>'",
      'dh_auto_build: error: make -j2 returned exit code 2',
    ];
    const lines = [...FAILED.slice(0, at), ...compile, ...FAILED.slice(at)];
    expect(analyseSbuildLog(lines).error).toEqual({ line: at + 2, text: compile[2] });
  });

  it('falls back to the first E: line when the build never started', () => {
    const build = FAILED.findIndex((t) => /^\| Build +\|$/.test(t)) - 1;
    const lines = [
      ...FAILED.slice(0, build),
      'E: Unable to satisfy dependencies: libfoo-dev (>= 2) but 1.9 is to be installed',
      'E: Package installation failed',
      '',
      ...FAILED.slice(FAILED.findIndex((t) => /^\| Summary +\|$/.test(t)) - 1).map((t) =>
        t === 'Fail-Stage: build' ? 'Fail-Stage: install-deps' : t,
      ),
    ];
    const analysis = analyseSbuildLog(lines);
    expect(analysis.summary.failStage).toBe('install-deps');
    expect(analysis.outline.some((e) => e.title === 'Build')).toBe(false);
    expect(analysis.error).toEqual({
      line: build,
      text: 'E: Unable to satisfy dependencies: libfoo-dev (>= 2) but 1.9 is to be installed',
    });
  });

  it('reads the Unicode boxes of older sbuild releases', () => {
    const lines = [
      'sbuild (Debian sbuild) 0.60.0 (23 Feb 2010) on builder',
      '╔══════════════════════════════════════════════════════════════════════════════╗',
      '║ hello 2.4-3 (amd64)                                        10 Mar 2010 12:00 ║',
      '╚══════════════════════════════════════════════════════════════════════════════╝',
      '',
      '┌──────────────────────────────────────────────────────────────────────────────┐',
      '│ Build                                                                        │',
      '└──────────────────────────────────────────────────────────────────────────────┘',
      '',
      'foo.c:1:1: error: expected identifier',
    ];
    const analysis = analyseSbuildLog(lines);
    expect(analysis.outline).toEqual([
      { title: 'hello 2.4-3 (amd64)', line: 1, kind: 'package', date: '10 Mar 2010 12:00' },
      { title: 'Build', line: 5, kind: 'section', date: null },
    ]);
    expect(analysis.error?.line).toBe(9);
  });

  it('keeps what it gathers bounded, whatever the log holds', () => {
    const lines = ['+---+', '| Build |', '+---+'];
    for (let i = 0; i < 50_000; i++) lines.push(`E: error: ${'x'.repeat(2000)}`);
    const analysis = analyseSbuildLog(lines);
    expect(analysis.errorLines).toHaveLength(1000);
    expect(analysis.errorLineCount).toBe(50_000);
    expect(analysis.error?.text.length).toBeLessThanOrEqual(1001);
  });

  it('knows an sbuild log by its name or its first line', () => {
    expect(isSbuildLog('hello_2.10-5_amd64.build', '')).toBe(true);
    expect(isSbuildLog('log.txt', 'sbuild (Debian sbuild) 0.89.3 (07 January 2025) on x')).toBe(
      true,
    );
    expect(isSbuildLog('lintian.txt', 'E: hello: bad-thing')).toBe(false);
  });
});
