import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseSbuildLog, isSbuildLog } from '../../src/main/logs/sbuild-log';

// Build logs that sbuild wrote on the project's current sandbox (see fixtures/real-work).
const log = (name: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures/real-work', name), 'utf8').split('\n');

describe('the sbuild analyser on logs from real builds', () => {
  it('finds where a real build broke: the make line of debian/rules, not the summary', () => {
    const lines = log('ddt-broken-failed.build');
    expect(isSbuildLog('ddt-broken_1.0_amd64-2026-11-24T03:16:25Z.build', lines[0] ?? '')).toBe(
      true,
    );
    const analysis = analyseSbuildLog(lines);
    expect(analysis.summary).toMatchObject({
      status: 'attempted',
      failStage: 'build',
      package: 'ddt-broken',
      version: '1.0',
      distribution: 'trixie',
    });
    expect(analysis.error?.text).toBe('make: *** [debian/rules:4: build-arch] Error 1');
    expect(lines[analysis.error?.line ?? -1]).toBe(analysis.error?.text);
    const summaryAt = analysis.outline.find((e) => e.title === 'Summary')?.line ?? 0;
    expect(analysis.error?.line).toBeLessThan(summaryAt);
    expect(analysis.outline.map((e) => e.title)).toEqual(
      expect.arrayContaining(['Install package build dependencies', 'Build', 'Cleanup', 'Summary']),
    );
  });

  it('reads a real successful build: status, duration, no error', () => {
    const analysis = analyseSbuildLog(log('ddt-hello-success.build'));
    expect(analysis.summary).toMatchObject({ status: 'successful', failStage: null });
    expect(analysis.summary.duration).toBeGreaterThan(0);
    expect(analysis.error).toBeNull();
    expect(analysis.errorLines).toEqual([]);
  });
});
