/**
 * Peak RSS of the main-process services during a big upload: the app's upload runs alone
 * in a child Node process (the same code the Electron main process runs); its VmHWM is
 * read from /proc at the end, and VmRSS is sampled from outside while it runs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir, writeRandomFile } from '../lib/data';
import { stats } from '../lib/stats';

const ROOT = resolve(import.meta.dirname, '../..');

interface ChildReport {
  before: { rss: number; hwm: number };
  after: { rss: number; hwm: number };
  ms: number;
  uploaded: number;
}

function sampleRss(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${String(pid)}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    // An exited child not yet reaped has no VmRSS line: no sample, rather than a NaN that
    // would stay the maximum.
    const kb = /(\d+)/.exec(line ?? '')?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function runChild(
  ctx: BenchContext,
  file: string,
): Promise<ChildReport & { sampledPeak: number }> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'),
      join(ROOT, 'bench/rss-child.ts'),
      ctx.server.apiUrl,
      ctx.server.scope,
      ctx.server.workspace,
      file,
    ],
    {
      env: { ...process.env, BENCH_TOKEN: ctx.server.token },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let sampledPeak = 0;
  const timer = setInterval(() => {
    if (child.pid !== undefined) sampledPeak = Math.max(sampledPeak, sampleRss(child.pid) ?? 0);
  }, 50);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  clearInterval(timer);
  if (code !== 0) throw new Error(`rss-child exited with ${String(code)}`);
  const report = JSON.parse(out.trim().split('\n').pop() ?? '') as ChildReport;
  if (report.uploaded !== 1) throw new Error('rss-child did not upload the file');
  return { ...report, sampledPeak };
}

export async function rssDuringUpload(ctx: BenchContext): Promise<void> {
  const size = ctx.sizes.rssUpload;
  const scenario = `main-process RSS, upload of ${String(size / 2 ** 20)} MiB`;
  const file = join(dataDir(ctx.server.root).host, 'rss.bin');
  try {
    await writeRandomFile(file, size);
    const result = await runChild(ctx, file);
    const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
    ctx.record({
      scenario,
      subject: 'app (child process)',
      stats: stats([result.ms]),
      bytes: size,
      note: `peak RSS ${mb(result.after.hwm)} (sampled ${mb(result.sampledPeak)}; ${mb(result.before.rss)} before the upload)`,
    });
    ctx.notes.push(
      `RSS during the ${String(size / 2 ** 20)} MiB upload: VmHWM ${mb(result.after.hwm)} for the whole Node process (jiti and the app's modules included; ${mb(result.before.rss)} once loaded, before the upload started).`,
    );
    ctx.target(scenario, 'peak RSS during a 1 GiB upload, MB', result.after.hwm / 1e6, {
      max: 200,
      text: '< 200 MB',
    });
  } finally {
    cleanData(ctx.server.root);
  }
}
