/**
 * results.lintianTags reads a lintian artifact's analysis.json through the verified
 * download path: the real file's tags come back most severe first; a server that lies
 * about the file (its SHA-256, its size) gets a clear error, and nothing is left in the
 * temporary folder either way.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintianTags } from '../../src/main/results/lintian-tags';
import { DebusineError } from '../../src/shared/errors';
import { startFakeDebusine, sha256, type FakeDebusine } from '../support/fake-debusine';

const ANALYSIS = readFileSync(
  join(import.meta.dirname, 'fixtures/real-work/lintian-analysis.json'),
  'utf8',
);

let server: FakeDebusine;
beforeAll(async () => {
  server = await startFakeDebusine();
});
afterAll(async () => {
  await server.close();
});

function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), 'ddt-lintian-test-'));
}

async function refusal(run: Promise<unknown>): Promise<DebusineError> {
  const error = await run.then(
    () => new Error('not refused'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DebusineError);
  return error as DebusineError;
}

describe('results.lintianTags', () => {
  it("returns the real analysis.json's tags, and removes its temporary folder", async () => {
    server.artifact(1, [{ path: 'analysis.json', content: ANALYSIS }, { path: 'lintian.txt' }]);
    const root = tempRoot();
    const result = await lintianTags(server.transport(), 1, { tempRoot: root });
    const expected = (JSON.parse(ANALYSIS) as { tags: unknown[] }).tags.length;
    expect(result.total).toBe(expected);
    expect(result.tags).toHaveLength(expected);
    expect(result.tags[0]?.package).toBe('ddt-hello');
    expect(result.tags.map((t) => t.tag)).toContain('control-tarball-compression-format');
    expect(readdirSync(root)).toEqual([]);
  });

  it('cuts a long list and says how many there were', async () => {
    server.artifact(2, [{ path: 'analysis.json', content: ANALYSIS }]);
    const result = await lintianTags(server.transport(), 2, { tempRoot: tempRoot(), maxTags: 2 });
    expect(result.tags).toHaveLength(2);
    expect(result.total).toBeGreaterThan(2);
  });

  it('refuses a file whose SHA-256 is not the declared one, leaving nothing behind', async () => {
    server.artifact(3, [
      { path: 'analysis.json', content: ANALYSIS, checksums: { sha256: sha256('other') } },
    ]);
    const root = tempRoot();
    const error = await refusal(lintianTags(server.transport(), 3, { tempRoot: root }));
    expect(error.message).toMatch(/analysis\.json/);
    expect(error.message).toMatch(/sha-?256|checksum|hash/i);
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses a declared size over the cap before fetching a byte', async () => {
    server.artifact(4, [{ path: 'analysis.json', content: ANALYSIS }]);
    const root = tempRoot();
    const before = server.servedUnder('/debusine/System/artifact/4/download/').length;
    const error = await refusal(
      lintianTags(server.transport(), 4, { tempRoot: root, maxBytes: 100 }),
    );
    expect(error.message).toMatch(/analysis\.json is \d+ bytes, more than the 100/);
    expect(server.servedUnder('/debusine/System/artifact/4/download/')).toHaveLength(before);
    expect(readdirSync(root)).toEqual([]);
  });

  it('names the field of an analysis.json that does not fit, leaving nothing behind', async () => {
    const bad = JSON.stringify({ tags: [{ severity: 'error', package: 'p', tag: 7 }] });
    server.artifact(5, [{ path: 'analysis.json', content: bad }]);
    const root = tempRoot();
    const error = await refusal(lintianTags(server.transport(), 5, { tempRoot: root }));
    expect(error.message).toMatch(/analysis\.json: tags\.0\.tag/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('says when the artifact has no analysis.json', async () => {
    server.artifact(6, [{ path: 'lintian.txt', content: 'x' }]);
    const error = await refusal(lintianTags(server.transport(), 6, { tempRoot: tempRoot() }));
    expect(error.code).toBe('not-found');
    expect(error.message).toMatch(/no analysis\.json/);
  });
});
