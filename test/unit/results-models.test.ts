import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactResponseSchema, type ArtifactResponse } from '../../src/shared/models';
import {
  autopkgtestResults,
  failedTests,
  parseAutopkgtestSummary,
} from '../../src/shared/results/autopkgtest';
import { binaryPackageRows } from '../../src/shared/results/binary-packages';
import { groupResults, isTextFile } from '../../src/shared/results/categories';
import {
  filterLintianTags,
  lintianSummary,
  parseLintianAnalysis,
} from '../../src/shared/results/lintian';

// What the current sandbox's tasks produced for the test packages (see the README there).
const dir = join(import.meta.dirname, 'fixtures/real-work');
const text = (name: string) => readFileSync(join(dir, name), 'utf8');
const artifact = (id: number): ArtifactResponse =>
  artifactResponseSchema.parse(JSON.parse(text(`artifact-${String(id)}.json`)));
const sbuildOutput = [406, 407, 408, 409, 410, 411, 412].map(artifact);

describe('results by kind, from what real tasks produced', () => {
  it('groups sbuild output in reading order: log, packages, upload, then the rest', () => {
    const groups = groupResults([...sbuildOutput].reverse());
    expect(groups.map((g) => g.kind)).toEqual([
      'build-log',
      'binary-packages',
      'upload',
      'debug-symbols',
      'signing-input',
      'debug-logs',
    ]);
    expect(groups[1]?.artifacts.map((a) => a.id)).toEqual([407, 408]);
  });

  it('puts a category it does not know under "other", last', () => {
    const odd = { ...artifact(412), id: 999, category: 'vendor:something-new' };
    const groups = groupResults([odd, artifact(406)]);
    expect(groups.map((g) => [g.kind, g.label])).toEqual([
      ['build-log', 'Build log'],
      ['other', 'Other artifacts'],
    ]);
  });

  it('tells text files (logs, reports, control files) from binaries', () => {
    for (const name of [
      'ddt-hello_1.0_amd64-2026-11-24T03:06:18Z.build',
      'cmd-output.log',
      'stages.log',
      'lintian.txt',
      'analysis.json',
      'log',
      'summary',
      'greets-stdout',
      'piuparts.txt',
      'ddt-hello_1.0_amd64.changes',
      'ddt-hello_1.0.dsc',
      'ddt-hello_1.0_amd64.buildinfo',
    ]) {
      expect(isTextFile(name), name).toBe(true);
    }
    for (const name of ['ddt-hello_1.0_amd64.deb', 'system.tar.xz', '977a1c38b626e1']) {
      expect(isTextFile(name), name).toBe(false);
    }
  });

  it('lists binary packages with version, architecture and sizes, debug symbols last', () => {
    const rows = binaryPackageRows([artifact(407), artifact(408)]);
    expect(rows).toEqual([
      {
        artifactId: 408,
        file: 'ddt-hello_1.0_amd64.deb',
        size: 3692,
        package: 'ddt-hello',
        version: '1.0',
        architecture: 'amd64',
        installedKiB: 28,
        debugSymbols: false,
      },
      expect.objectContaining({ package: 'ddt-hello-dbgsym', debugSymbols: true }),
    ]);
  });

  it('shows a binary package with hostile or missing fields as unknown, not a crash', () => {
    const base = artifact(408);
    const odd = { ...base, data: { deb_fields: { Package: 7, 'Installed-Size': '1e9' } } };
    const none = { ...base, data: { deb_fields: 'not an object' } };
    for (const a of [odd, none]) {
      expect(binaryPackageRows([a])[0]).toMatchObject({
        package: null,
        version: null,
        installedKiB: null,
      });
    }
  });

  it('reads lintian tag counts by severity, for the binary and the source analysis', () => {
    expect(lintianSummary(artifact(415))).toMatchObject({
      architecture: 'amd64',
      counts: { error: 0, warning: 0, info: 0, classification: 31 },
      lintianVersion: '2.122.0+deb13u1',
    });
    expect(lintianSummary(artifact(416)).counts.info).toBe(1);
    const hostile = {
      ...artifact(415),
      data: { summary: { tags_count_by_severity: { error: -3, warning: 'x' } } },
    };
    expect(lintianSummary(hostile).counts).toMatchObject({ error: 0, warning: 0 });
  });

  it('parses analysis.json into tags, most severe first, and filters them', () => {
    const tags = parseLintianAnalysis(text('lintian-analysis.json'));
    expect(tags.length).toBeGreaterThan(0);
    expect(new Set(tags.map((t) => t.package))).toEqual(new Set(['ddt-hello', 'ddt-hello-dbgsym']));
    expect(tags.map((t) => t.tag)).toContain('no-ctrl-scripts');
    const mixed = parseLintianAnalysis(
      JSON.stringify({
        tags: [
          { severity: 'info', package: 'b', tag: 't1' },
          { severity: 'error', package: 'a', tag: 't2', note: 'usr/bin/x' },
          { severity: 'warning', package: 'a', tag: 't3' },
        ],
      }),
    );
    expect(mixed.map((t) => t.severity)).toEqual(['error', 'warning', 'info']);
    expect(filterLintianTags(mixed, { severities: new Set(['error', 'warning']) })).toHaveLength(2);
    expect(filterLintianTags(mixed, { text: 'USR/BIN' }).map((t) => t.tag)).toEqual(['t2']);
  });

  it('names the file and the field when analysis.json does not fit', () => {
    expect(() => parseLintianAnalysis('{"tags": [', 'analysis.json')).toThrow(
      /^analysis\.json is not JSON/,
    );
    expect(() => parseLintianAnalysis('{"tags": [{"severity": "error", "tag": 3}]}')).toThrow(
      /^analysis\.json: tags\.0\.package: /,
    );
    expect(() => parseLintianAnalysis('[]')).toThrow(/^analysis\.json: the top level: /);
  });

  it('reads each autopkgtest result from the data, and from a summary file', () => {
    expect(autopkgtestResults(artifact(413))).toEqual([
      { name: 'greets', status: 'PASS', details: null },
    ]);
    expect(parseAutopkgtestSummary(text('autopkgtest-summary'))).toEqual([
      { name: 'greets', status: 'PASS', details: null },
    ]);
    const summary = parseAutopkgtestSummary(
      'smoke PASS\nupgrade FAIL non-zero exit status 1\nnet SKIP needs-internet\n\n',
    );
    expect(failedTests(summary)).toEqual([
      { name: 'upgrade', status: 'FAIL', details: 'non-zero exit status 1' },
    ]);
  });
});
