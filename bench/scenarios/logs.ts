/**
 * A big build log in the app's viewer: the log store (main) downloads it from the server,
 * verified, indexes its lines as they arrive and answers the first screen, then searches
 * the whole file. Anchors on the same file, once it is local: `less` showing its first
 * screen in a terminal, and `grep -c` counting a word. Each app run is a fresh process
 * with an empty cache, so its peak RSS is the viewer's own.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LocalArtifact, uploadArtifact } from '../../src/main/artifacts';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir } from '../lib/data';
import { BENCH_CATEGORY } from '../lib/server';
import { stats } from '../lib/stats';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/unit/fixtures/real-work/ddt-hello-success.build');
const NAME = 'big_1.0_amd64-2026-11-24T00:00:00Z.build';
/** The word searched for: one line in 500 has it. */
export const SEARCHED_WORD = 'deprecated-declarations';
const WORD = SEARCHED_WORD;

interface ChildReport {
  before: { rss: number; hwm: number };
  after: { rss: number; hwm: number };
  firstMiB: number | undefined;
  firstScreen: number | undefined;
  ready: number;
  lines: number;
  searchPlain: number;
  searchRegex: number;
  matchesPlain: number;
}

/**
 * An sbuild log of about `size` bytes: a real log's head and summary around a long Build
 * section of compiler and make lines, as a big C++ package's log looks.
 */
export async function writeBuildLog(path: string, size: number): Promise<void> {
  const real = readFileSync(FIXTURE, 'utf8').split('\n');
  const buildAt = real.findIndex((l) => l.startsWith('| Build ')) + 2;
  const head = real.slice(0, buildAt + 1).join('\n') + '\n';
  const tail = real.slice(buildAt + 1).join('\n');
  const out = createWriteStream(path);
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      if (out.write(text)) resolve();
      else out.once('drain', resolve);
    });
  await write(head);
  let written = head.length + tail.length;
  for (let i = 0; written < size; i++) {
    const line =
      i % 500 === 0
        ? `src/module-${String(i)}.cc:${String(i % 997)}:12: warning: 'void f()' is deprecated [-W${WORD}]\n`
        : `g++ -g -O2 -ffile-prefix-map=/build/reproducible-path/big-1.0=. -fstack-protector-strong -fstack-clash-protection -Wformat -Werror=format-security -fcf-protection -c src/module-${String(i)}.cc -o build/module-${String(i)}.o\n`;
    await write(line);
    written += line.length;
  }
  await write(tail);
  await new Promise<void>((resolve, reject) => {
    out.end(() => {
      resolve();
    });
    out.on('error', reject);
  });
}

async function runChild(ctx: BenchContext, artifactId: number, cacheDir: string) {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'),
      join(ROOT, 'bench/log-child.ts'),
      ctx.server.apiUrl,
      ctx.server.scope,
      String(artifactId),
      NAME,
      cacheDir,
      WORD,
      'module-[0-9]+7\\.cc:[0-9]+:12: warning',
    ],
    {
      env: { ...process.env, BENCH_TOKEN: ctx.server.token },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  if (code !== 0) throw new Error(`log-child exited with ${String(code)}`);
  return JSON.parse(out.trim().split('\n').pop() ?? '') as ChildReport;
}

/** `less` in a terminal (script(1) gives it one): until its first screen is written. */
async function lessFirstScreen(file: string, firstLine: string): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn('script', ['-qfc', `less -X ${file}`, '/dev/null'], {
    env: { ...process.env, LINES: '60', COLUMNS: '160', TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let seen = '';
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      // The first screen ends with less's prompt after the file's lines.
      // (less writes its prompt ":" on the last line, in reverse video on most terminals.)
      const prompt = ['\n:', '(END)', '\u001b[7m'].some((mark) => seen.includes(mark));
      if (seen.includes(firstLine) && prompt) {
        resolve(Number(process.hrtime.bigint() - start) / 1e6);
      }
    });
    child.on('close', () => {
      reject(new Error('less exited before its first screen'));
    });
  });
  child.stdin.write('q');
  child.kill('SIGTERM');
  return ms;
}

async function grepCount(file: string): Promise<{ ms: number; count: number }> {
  const start = process.hrtime.bigint();
  const child = spawn('grep', ['-c', '--', WORD, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  await new Promise((r) => child.on('close', r));
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, count: Number(out.trim()) };
}

export async function logViewer(ctx: BenchContext): Promise<void> {
  const size = ctx.sizes.buildLog;
  const mib = String(Math.round(size / 2 ** 20));
  const scenario = `log viewer, ${mib} MiB build log`;
  const dir = dataDir(ctx.server.root).host;
  try {
    const source = join(dir, 'logs');
    mkdirSync(source, { recursive: true });
    const file = join(source, NAME);
    await writeBuildLog(file, size);
    const artifact = new LocalArtifact(BENCH_CATEGORY);
    await artifact.addLocalFile(file);
    const { id } = await uploadArtifact(ctx.client, artifact, { workspace: ctx.server.workspace });

    const runs: ChildReport[] = [];
    for (let i = 0; i < ctx.runs; i++)
      runs.push(await runChild(ctx, id, join(dir, `cache-${String(i)}`)));
    const firstLine = readFileSync(file, 'latin1').slice(0, 200).split('\n')[0] ?? '';
    const less: number[] = [];
    const grep: number[] = [];
    let grepMatches = 0;
    for (let i = 0; i < ctx.runs; i++) {
      less.push(await lessFirstScreen(file, firstLine.slice(0, 40)));
      const counted = await grepCount(file);
      grep.push(counted.ms);
      grepMatches = counted.count;
    }
    const first = runs.map((r) => r.firstScreen ?? NaN);
    const afterMiB = runs.map((r) => Math.max(0, (r.firstScreen ?? NaN) - (r.firstMiB ?? 0)));
    const plain = runs.map((r) => r.searchPlain);
    const hwm = Math.max(...runs.map((r) => r.after.hwm));
    const matches = runs[0]?.matchesPlain ?? 0;
    if (matches !== grepMatches) {
      throw new Error(
        `the app found ${String(matches)} lines with ${WORD}, grep -c ${String(grepMatches)}`,
      );
    }
    // One measurement of a step: who did it, the times of its runs, what it moved and found.
    const row = (step: string, subject: string, ms: number[], bytes?: number, note?: string) => {
      ctx.record({ scenario: `${scenario}: ${step}`, subject, stats: stats(ms), bytes, note });
    };
    const screen = 'first screen';
    const search = 'search the whole file';
    const regex = runs.map((r) => r.searchRegex);
    const ready = runs.map((r) => r.ready);
    row(screen, 'app, from the open (download from the server)', first, size);
    row(screen, 'app, after the first MiB is on disk', afterMiB);
    row(screen, 'less, file already local', less);
    row(search, 'app (count, first match)', plain, size, `${String(matches)} matching lines`);
    row(search, 'app, regular expression', regex, size);
    row(search, 'grep -c', grep, size, `${String(grepMatches)} matching lines`);
    const lines = `${String(runs[0]?.lines ?? 0)} lines`;
    row('download, index and analyse', 'app', ready, size, lines);
    const median = (values: number[]) => stats(values).medianMs;
    ctx.target(scenario, 'first screen after the first MiB is on disk, ms', median(afterMiB), {
      max: 300,
      text: '≤ 300 ms',
    });
    ctx.target(scenario, 'search across the whole local file, ms', median(plain), {
      max: 1000,
      text: '≤ 1 s',
    });
    ctx.target(scenario, "main's peak RSS while opening and searching, MB", hwm / 1e6, {
      max: 200,
      text: '≤ 200 MB',
    });
    ctx.notes.push(
      `Log viewer: peak RSS ${(hwm / 1e6).toFixed(0)} MB for the whole Node process that opened, indexed and searched the ${mib} MiB log (${((runs[0]?.before.rss ?? 0) / 1e6).toFixed(0)} MB once loaded).`,
    );
  } finally {
    cleanData(ctx.server.root);
  }
}
