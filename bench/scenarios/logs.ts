/**
 * A big build log in the app's viewer: the log store (main) downloads it from the server,
 * verified, indexes its lines as they arrive and answers the first screen, then searches
 * the whole file. Anchors on the same file, once it is local: `less` showing its first
 * screen in a terminal, and `grep -c` counting a word. Each app run is a fresh process
 * with an empty cache, so its peak RSS is the viewer's own.
 *
 * Then the huge log (bench/lib/huge-log.ts, 200 MB and 4.2 million lines): searches, each
 * beside `grep -c` (`LC_ALL=C grep -c -i` when the case is ignored) on the same file, and
 * jumps: the window of lines that "go to line" reads, at twenty places across the file
 * and at its last line, beside `less` starting on the file at that line in a terminal
 * (`less -N +<n>g`, and `less +G` / `less -N +G` for the end). less keeps no index: to
 * number the lines it reads the file up to the line, each time; the app built its index
 * once, while the file arrived (the "download, index and analyse" row).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LocalArtifact, uploadArtifact } from '../../src/main/artifacts';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir } from '../lib/data';
import { BENCH_CATEGORY } from '../lib/server';
import { stats } from '../lib/stats';
import { HUGE_QUERIES, LAST_NEEDLE, hugeLog, type HugeLog } from '../lib/huge-log';

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
  searches?: { query: string; ms: number; matches: number; line: number | null }[];
  jumps?: number[];
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

async function runChild(
  ctx: BenchContext,
  artifactId: number,
  cacheDir: string,
  file: { name: string; word: string; regex: string; more?: unknown } = {
    name: NAME,
    word: WORD,
    regex: 'module-[0-9]+7\\.cc:[0-9]+:12: warning',
  },
) {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'),
      join(ROOT, 'bench/log-child.ts'),
      ctx.server.apiUrl,
      ctx.server.scope,
      String(artifactId),
      file.name,
      cacheDir,
      file.word,
      file.regex,
      ...(file.more === undefined ? [] : [JSON.stringify(file.more)]),
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

/**
 * `less` started on `file` in a terminal (script(1) gives it one) with `args`, until the
 * screen it opens on is written: `mark` is on it, and so is less's prompt.
 */
async function lessScreen(file: string, args: string[], mark: string): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn('script', ['-qfc', `less -X ${args.join(' ')} ${file}`, '/dev/null'], {
    // No LESS or LESSOPEN of the machine's: less as it comes.
    env: { PATH: process.env.PATH ?? '', LINES: '60', COLUMNS: '160', TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let seen = '';
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      // less writes its prompt ":" on the last line, in reverse video on most terminals.
      const prompt = ['\n:', '(END)', '\u001b[7m'].some((m) => seen.includes(m));
      if (seen.includes(mark) && prompt) resolve(Number(process.hrtime.bigint() - start) / 1e6);
    });
    child.on('close', () => {
      reject(new Error(`less ${args.join(' ')} exited before its screen`));
    });
  });
  child.stdin.write('q');
  child.kill('SIGTERM');
  return ms;
}

/** The huge log: searches beside grep, jumps beside less (see the top of this file). */
async function hugeLogPart(ctx: BenchContext): Promise<void> {
  const huge: HugeLog = await hugeLog(ctx.server.root, ctx.sizes.hugeLog);
  const mb = `${String(Math.round(huge.size / 1e6))} MB`;
  const scenario = `log viewer, ${mb} build log of ${huge.lines.toLocaleString('en')} lines`;
  const artifact = new LocalArtifact(BENCH_CATEGORY);
  await artifact.addLocalFile(huge.path);
  const { id } = await uploadArtifact(ctx.client, artifact, { workspace: ctx.server.workspace });
  const last = huge.lines - 1;
  const jumps = Array.from({ length: 20 }, (_, k) => Math.floor(((k + 0.5) * huge.lines) / 20));
  const more = { queries: HUGE_QUERIES, jumps: [...jumps, last] };
  const dir = dataDir(ctx.server.root).host;
  const runs: ChildReport[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    runs.push(
      await runChild(ctx, id, join(dir, `huge-cache-${String(i)}`), {
        name: huge.name,
        // Not one of HUGE_QUERIES: the child's first search must not answer one of them.
        word: 'Finished at',
        regex: `${LAST_NEEDLE}: the end$`,
        more,
      }),
    );
  }
  const row = (step: string, subject: string, ms: number[], bytes?: number, note?: string) => {
    ctx.record({ scenario: `${scenario}: ${step}`, subject, stats: stats(ms), bytes, note });
  };
  const median = (values: number[]) => stats(values).medianMs;
  row(
    'download, index and analyse',
    'app',
    runs.map((r) => r.ready),
    huge.size,
  );

  for (const [q, query] of HUGE_QUERIES.entries()) {
    const app = runs.map((r) => r.searches?.[q]?.ms ?? NaN);
    const found = runs[0]?.searches?.[q];
    const grep: number[] = [];
    let counted = 0;
    for (let i = 0; i < ctx.runs; i++) {
      const g = await grepCount(huge.path, query.query, query.caseSensitive);
      grep.push(g.ms);
      counted = g.count;
    }
    if (found?.matches !== counted) {
      throw new Error(
        `the app found ${String(found?.matches)} lines with ${query.query}, grep -c ${String(counted)}`,
      );
    }
    const step = `search "${query.query}"${query.caseSensitive ? '' : ', case ignored'} (${query.what})`;
    const first = found.line === null ? 'none' : (found.line + 1).toLocaleString('en');
    row(
      step,
      'app (count and first hit)',
      app,
      huge.size,
      `${String(counted)} lines, first ${first}`,
    );
    row(step, query.caseSensitive ? 'grep -c' : 'LC_ALL=C grep -c -i', grep, huge.size);
    ctx.target(scenario, `search "${query.query}", app ÷ grep`, median(app) / median(grep), {
      max: 1.5,
      text: '≤ 1.5',
    });
  }

  const appJumps = runs.flatMap((r) => r.jumps?.slice(0, jumps.length) ?? []);
  const appEnd = runs.map((r) => r.jumps?.[jumps.length] ?? NaN);
  const lessJumps: number[] = [];
  const lessEnd: number[] = [];
  const lessEndNumbered: number[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    // Four of the twenty places per run: less reads up to each, from a fresh start.
    for (const line of jumps.filter((_, k) => k % 5 === i % 5)) {
      lessJumps.push(
        await lessScreen(huge.path, ['-N', `+${String(line + 1)}g`], String(line + 1)),
      );
    }
    lessEnd.push(await lessScreen(huge.path, ['+G'], LAST_NEEDLE));
    // less ends lines at LF only (a lone CR too for the app): its numbers differ, its last
    // line does not.
    lessEndNumbered.push(await lessScreen(huge.path, ['-N', '+G'], LAST_NEEDLE));
  }
  const jumpStep = 'go to a line (20 places across the file)';
  row(jumpStep, 'app, the window of lines read (index built)', appJumps);
  row(jumpStep, 'less -N +<line>g (from a fresh start)', lessJumps);
  const endStep = 'the last line';
  row(endStep, 'app, the window of lines read (index built)', appEnd);
  row(endStep, 'less +G (no line numbers)', lessEnd);
  row(endStep, 'less -N +G (with line numbers)', lessEndNumbered);
  ctx.notes.push(
    `Huge log (${mb}, ${huge.lines.toLocaleString('en')} lines, a real sbuild log repeated with hostile bytes): a jump reads one window of 200 lines through the index, ${median(appJumps).toFixed(1)} ms in the median; less, which keeps no index, takes ${median(lessJumps).toFixed(0)} ms to open on a numbered line (${median(lessEndNumbered).toFixed(0)} ms for the last one, ${median(lessEnd).toFixed(0)} ms unnumbered).`,
  );
}

async function grepCount(
  file: string,
  word = WORD,
  caseSensitive = true,
): Promise<{ ms: number; count: number }> {
  const start = process.hrtime.bigint();
  const flags = caseSensitive ? ['-c'] : ['-c', '-i'];
  // The C locale: grep -i then folds ASCII only, as the app does (byte-search.ts).
  const child = spawn('grep', [...flags, '--', word, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LC_ALL: 'C' },
  });
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
      // Its first screen: the file's first line, and less's prompt after the lines.
      less.push(await lessScreen(file, [], firstLine.slice(0, 40)));
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
    await hugeLogPart(ctx);
    ctx.notes.push(
      `Log viewer: peak RSS ${(hwm / 1e6).toFixed(0)} MB for the whole Node process that opened, indexed and searched the ${mib} MiB log (${((runs[0]?.before.rss ?? 0) / 1e6).toFixed(0)} MB once loaded).`,
    );
  } finally {
    cleanData(ctx.server.root);
  }
}
