/**
 * Reads one artifact record in a process of its own, as a download does before anything
 * else (GET the record, then check its file list), so that the memory it takes can be read
 * apart from the test runner's. Prints one JSON line: the resident memory before, the peak
 * resident memory during the read, the time it took, and the file count or the error.
 * Usage: node --expose-gc jiti-cli.mjs test/support/artifact-read-child.ts <apiUrl> <id>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { HttpTransport } from '../../src/main/api/http';
import { declaredFiles } from '../../src/main/artifacts/transfer/declared-files';
import { getArtifact } from '../../src/main/artifacts/transfer/remote';
import { DebusineError } from '../../src/shared/errors';

export interface ReadReport {
  /** VmRSS before the read, after a full garbage collection. */
  rssBefore: number;
  /** VmHWM after the read: the peak resident memory, reset just before the read. */
  peak: number;
  ms: number;
  files?: number;
  error?: { code: string; message: string };
}

/** A field of /proc/self/status (`VmRSS`, `VmHWM`), in bytes. */
function status(field: string): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}

const [apiUrl, id] = process.argv.slice(2);
if (apiUrl === undefined || id === undefined) throw new Error('usage: apiUrl id');
const http = new HttpTransport({ apiUrl, token: 't', retries: 0 });

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
gc();
// "5" resets VmHWM to the current resident size, so that the peak is the read's alone and
// not loading the modules'.
writeFileSync('/proc/self/clear_refs', '5');
const report: ReadReport = { rssBefore: status('VmRSS'), peak: 0, ms: 0 };
const start = process.hrtime.bigint();
try {
  const artifact = await getArtifact(http, Number(id));
  report.files = declaredFiles(artifact).files.size;
} catch (error) {
  report.error =
    error instanceof DebusineError
      ? { code: error.code, message: error.message }
      : { code: 'thrown', message: String(error) };
}
report.ms = Number(process.hrtime.bigint() - start) / 1e6;
report.peak = status('VmHWM');
await http.close();
process.stdout.write(JSON.stringify(report) + '\n');
