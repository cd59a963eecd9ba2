/**
 * What a server can make the app read with one artifact record: at most JSON_BODY_LIMIT
 * bytes and MAX_ARTIFACT_FILES files. Each record is read in a Node process of its own
 * (test/support/artifact-read-child.ts), as a download reads it (the record, then its file
 * list checked), so that its peak memory is the read's alone; the local server counts the
 * bytes it handed to the connection before the app closed it.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLimit, JSON_BODY_LIMIT, JSON_VALUE_LIMIT } from '../../src/main/api/body-limits';
import { MAX_ARTIFACT_FILES } from '../../src/shared/models';
import type { ReadReport } from '../support/artifact-read-child';
import {
  startRecordServer,
  type RecordServer,
  type RecordShape,
} from '../support/artifact-record-server';

const ROOT = resolve(import.meta.dirname, '../..');
const MB = 2 ** 20;
/** The most the read of an accepted record may add to the process's resident memory. */
const MEMORY_BUDGET = 200 * MB;
/**
 * What the server may have handed to the connection beyond what the app read: the socket
 * buffers of both ends, which take a few MB on loopback.
 */
const IN_FLIGHT = 16 * MB;

let server: RecordServer;
beforeAll(async () => {
  server = await startRecordServer();
});
afterAll(async () => {
  await server.close();
});

/** Reads artifact `id` in a child process and reports what it took. */
async function readInChild(id: number): Promise<ReadReport> {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      resolve(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'),
      resolve(ROOT, 'test/support/artifact-read-child.ts'),
      server.apiUrl,
      String(id),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  expect(code).toBe(0);
  return JSON.parse(out) as ReadReport;
}

/** What the read took, for a failure's message. */
function growth(report: ReadReport): string {
  return `the read took ${((report.peak - report.rssBefore) / MB).toFixed(1)} MB at its peak`;
}

/**
 * The largest record accepted: MAX_ARTIFACT_FILES files whose paths are padded so that the
 * record is as close to JSON_BODY_LIMIT as whole characters allow.
 */
function largestAccepted(id: number): RecordShape {
  const files = MAX_ARTIFACT_FILES;
  // Past the longest unpadded path, each character more adds two bytes a file (the path
  // and the URL that ends with it).
  const base = 80;
  const room = JSON_BODY_LIMIT - server.length(id, { files, pathLength: base });
  return { files, pathLength: base + Math.floor(room / (2 * files)) };
}

/** What the app says of a record longer than the limit. */
const TOO_LARGE = `The server's answer to artifactGet is larger than ${formatLimit(JSON_BODY_LIMIT)}`;

/**
 * Serves `shape` as artifact `id` and reads it, expecting the read to refuse it as longer
 * than the limit and the server to have been cut off; the read's report, and what was sent.
 */
async function refusedAsTooLarge(id: number, shape: RecordShape) {
  server.artifact(id, shape);
  const report = await readInChild(id);
  expect(report.error).toEqual({ code: 'bad-response', message: TOO_LARGE });
  const sent = await server.sent(id);
  expect(sent.closedEarly).toBe(true);
  return { report, sent };
}

// Each record is read by a Node process started for it: seconds each on a busy machine.
describe('an artifact record', { timeout: 120_000 }, () => {
  it('of the most files and bytes accepted is read in under 200 MB', async () => {
    const shape = largestAccepted(1);
    const length = server.length(1, shape);
    expect(length).toBeLessThanOrEqual(JSON_BODY_LIMIT);
    expect(JSON_BODY_LIMIT - length).toBeLessThan(2 * MAX_ARTIFACT_FILES);
    server.artifact(1, shape);
    const report = await readInChild(1);
    expect(report.error).toBeUndefined();
    expect(report.files).toBe(MAX_ARTIFACT_FILES);
    expect(report.peak - report.rssBefore, growth(report)).toBeLessThan(MEMORY_BUDGET);
    expect(await server.sent(1)).toEqual({ bytes: length, closedEarly: false });
  });

  it('of one file more is refused, naming the artifact and both counts', async () => {
    const files = MAX_ARTIFACT_FILES + 1;
    server.artifact(2, { files });
    const report = await readInChild(2);
    expect(report.error?.code).toBe('bad-response');
    expect(report.error?.message).toContain(
      `Artifact 2 lists ${String(files)} files; at most ${String(MAX_ARTIFACT_FILES)} are accepted`,
    );
    expect(report.peak - report.rssBefore, growth(report)).toBeLessThan(MEMORY_BUDGET);
  });

  it('of a million files is refused once the bytes read pass the limit', async () => {
    const { report, sent } = await refusedAsTooLarge(3, { files: 1_000_000 });
    expect(sent.bytes).toBeGreaterThan(JSON_BODY_LIMIT);
    expect(sent.bytes).toBeLessThan(JSON_BODY_LIMIT + IN_FLIGHT);
    // Nothing past the limit was kept, and only the bytes below it were ever held.
    expect(report.peak - report.rssBefore, growth(report)).toBeLessThan(MEMORY_BUDGET / 2);
  });

  it('within the bytes but of millions of tiny values is refused before it is parsed', async () => {
    // As many empty objects as the limit's bytes hold: 5.6 million, half a GB once parsed.
    const objects = Math.floor((JSON_BODY_LIMIT - server.length(5, { files: 1 }) - 2) / 3);
    const shape = { files: 1, data: `[${'{},'.repeat(objects - 1)}{}]` };
    expect(server.length(5, shape)).toBeLessThanOrEqual(JSON_BODY_LIMIT);
    server.artifact(5, shape);
    const report = await readInChild(5);
    expect(report.error).toEqual({
      code: 'bad-response',
      message: `The server's answer to artifactGet holds more than ${JSON_VALUE_LIMIT.toLocaleString('en')} values`,
    });
    expect(report.peak - report.rssBefore, growth(report)).toBeLessThan(MEMORY_BUDGET);
  });

  it('announced longer than the limit is refused before its body is read', async () => {
    const { report, sent } = await refusedAsTooLarge(4, { files: 200_000, contentLength: true });
    expect(sent.bytes).toBeLessThan(IN_FLIGHT);
    expect(report.peak - report.rssBefore, growth(report)).toBeLessThan(IN_FLIGHT * 2);
  });
});
