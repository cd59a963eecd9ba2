/**
 * The log viewer's renderer memory: does the page grow with the file? The same build log
 * is made at two sizes (1 MiB and the scenario's big size), both files of one artifact on
 * the sandbox, and each is opened in the built app in Debian's headless Chromium, with the
 * same walk through it: wait until the whole file is indexed, search a word and step
 * through five matches, go to the last line, scroll back up a few screens. Then, after a
 * forced garbage collection, Chromium's own counters (DevTools protocol): the JS heap in
 * use and the DOM nodes of the page. Each run is a fresh browser context. The anchor is
 * the small file: what the big one adds is what the renderer keeps per byte of log. The
 * walk is made again with long lines wrapped, whose rows are measured one by one.
 *
 * Then the huge log (bench/lib/huge-log.ts, 200 MB and 4.2 million lines, far past the
 * 1.86 million rows that one tall sizer could hold) and a 1 MB log made the same way: twenty
 * "go to line" jumps across the file, Ctrl+End and a search whose only hit is the last
 * line, each timed until its line is on screen; the counters are read after the first
 * screen and after the walk, with the sbuild outline hidden.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { LocalArtifact, uploadArtifact } from '../../src/main/artifacts';
import { openPage, startApp, type RunningApp } from '../../test/support/app';
import { launchBrowser } from '../../test/support/browser';
import type { BenchContext } from '../lib/context';
import { cleanData, dataDir } from '../lib/data';
import { BENCH_CATEGORY } from '../lib/server';
import { stats } from '../lib/stats';
import { checkBuild } from './renderer';
import { SEARCHED_WORD, writeBuildLog } from './logs';
import { LAST_NEEDLE, hugeLog, type HugeLog } from '../lib/huge-log';

const SMALL = 2 ** 20;
/** How many matches the walk steps through after the first (the 1 MiB log has about ten). */
const STEPS = 5;
/** How far the walk scrolls back up from the last line, in wheel steps of 600 px. */
const WHEEL_STEPS = 15;

interface Counters {
  heapUsed: number;
  nodes: number;
  rows: number;
  /** How long the walk took, from the click on the file to the last wheel step. */
  walkMs: number;
}

/** The page's JS heap in use and DOM nodes, after a full garbage collection. */
async function counters(page: Page): Promise<Omit<Counters, 'walkMs'>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? NaN;
    const rows = await page.getByTestId('log-row').count();
    return { heapUsed: metric('JSHeapUsedSize'), nodes: metric('Nodes'), rows };
  } finally {
    await cdp.detach();
  }
}

async function walk(
  page: Page,
  artifactId: number,
  name: string,
  wrap: boolean,
): Promise<Counters> {
  await page.getByRole('button', { name: 'Artifacts', exact: true }).click();
  const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
  await lookup.fill(String(artifactId));
  await lookup.press('Enter');
  const open = page.getByRole('button', { name: `Open ${name}` });
  await open.waitFor();
  const start = performance.now();
  await open.click();
  await page.getByRole('heading', { name }).waitFor();
  // Indexed to the end: the header says "N lines, <size>" without "so far".
  const progress = page.getByTestId('log-progress');
  await progress.filter({ hasText: /lines, / }).waitFor({ timeout: 600_000 });
  const lines = Number(((await progress.textContent()) ?? '').replace(/ lines.*$|,/g, ''));
  if (wrap) await page.getByRole('button', { name: 'Wrap long lines' }).click();

  const search = page.getByRole('textbox', { name: 'Search the log' });
  await search.fill(SEARCHED_WORD);
  await search.press('Enter');
  await page.getByText(/^1 of \d/).waitFor({ timeout: 120_000 });
  for (let i = 0; i < STEPS; i++) await search.press('Enter');
  await page.getByText(new RegExp(`^${String(STEPS + 1)} of \\d`)).waitFor();

  await page.keyboard.press('Control+g');
  const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
  await goto.fill(String(lines));
  await goto.press('Enter');
  await page.getByRole('button', { name: `Line ${String(lines)}`, exact: true }).waitFor();
  const body = page.getByRole('region', { name: 'Log lines' });
  await body.hover();
  for (let i = 0; i < WHEEL_STEPS; i++) {
    await page.mouse.wheel(0, -600);
    await page.waitForTimeout(50);
  }
  const walkMs = performance.now() - start;
  // Let the last windows of lines arrive before counting.
  await page.waitForTimeout(500);
  return { ...(await counters(page)), walkMs };
}

async function measure(
  browser: Browser,
  app: RunningApp,
  artifactId: number,
  name: string,
  wrap = false,
): Promise<Counters> {
  const { page, errors } = await openPage(browser, app);
  try {
    const result = await walk(page, artifactId, name, wrap);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await page.context().close();
  }
}

interface JumpWalk {
  /** After the first screen, and after the walk. */
  before: Omit<Counters, 'walkMs'>;
  after: Omit<Counters, 'walkMs'>;
  jumpMs: number[];
  endMs: number;
  searchMs: number;
}

/**
 * Waits until the row of line `n` (from 1) is wholly on screen: asked of the boxes Playwright
 * reads, a frame apart (the page's CSP allows no script from a string, so no
 * waitForFunction).
 */
async function lineShown(page: Page, n: number): Promise<void> {
  const row = page.getByRole('button', { name: `Line ${String(n)}`, exact: true });
  const body = page.getByRole('region', { name: 'Log lines' });
  await row.waitFor({ timeout: 60_000 });
  for (const started = performance.now(); performance.now() - started < 60_000;) {
    const [r, b] = await Promise.all([row.boundingBox(), body.boundingBox()]);
    if (r && b && r.y >= b.y && r.y + r.height <= b.y + b.height) return;
    await page.waitForTimeout(16);
  }
  throw new Error(`line ${String(n)} did not come on screen`);
}

async function jumpWalk(page: Page, artifactId: number, log: HugeLog): Promise<JumpWalk> {
  await page.getByRole('button', { name: 'Artifacts', exact: true }).click();
  const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
  await lookup.fill(String(artifactId));
  await lookup.press('Enter');
  await page.getByRole('button', { name: `Open ${log.name}` }).click();
  const progress = page.getByTestId('log-progress');
  await progress
    .filter({ hasText: `${log.lines.toLocaleString('en')} lines, ` })
    .waitFor({ timeout: 600_000 });
  await lineShown(page, 1);
  // The sbuild outline (at most 2,000 entries, more for the bigger log) hidden: the
  // counters are then the body's, what jumping could make grow.
  const outline = page.getByRole('button', { name: 'Show the outline' });
  if ((await outline.getAttribute('aria-pressed')) === 'true') await outline.click();
  await page.waitForTimeout(500);
  const before = await counters(page);
  const goto = page.getByRole('textbox', { name: 'Go to line (Ctrl+G)' });
  const jumpMs: number[] = [];
  for (let k = 0; k < 20; k++) {
    const n = 1 + Math.floor(((k + 0.5) * log.lines) / 20);
    await goto.fill(String(n));
    const start = performance.now();
    await goto.press('Enter');
    await lineShown(page, n);
    jumpMs.push(performance.now() - start);
  }
  const body = page.getByRole('region', { name: 'Log lines' });
  await body.focus();
  await page.keyboard.press('Control+Home');
  await lineShown(page, 1);
  let start = performance.now();
  await page.keyboard.press('Control+End');
  await lineShown(page, log.lines);
  const endMs = performance.now() - start;
  await page.keyboard.press('Control+Home');
  await lineShown(page, 1);
  const search = page.getByRole('textbox', { name: 'Search the log' });
  await search.fill(LAST_NEEDLE);
  start = performance.now();
  await search.press('Enter');
  await page.getByText('1 of 1', { exact: true }).waitFor({ timeout: 60_000 });
  await lineShown(page, log.lines);
  const searchMs = performance.now() - start;
  await page.waitForTimeout(500);
  return { before, after: await counters(page), jumpMs, endMs, searchMs };
}

async function measureJumps(
  browser: Browser,
  app: RunningApp,
  artifactId: number,
  log: HugeLog,
): Promise<JumpWalk> {
  const { page, errors } = await openPage(browser, app);
  try {
    const result = await jumpWalk(page, artifactId, log);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await page.context().close();
  }
}

/** The huge log and a small one made the same way: jumps, the end, a search. */
async function hugeLogJumps(ctx: BenchContext, browser: Browser, app: RunningApp): Promise<void> {
  const huge = await hugeLog(ctx.server.root, ctx.sizes.hugeLog);
  const small = await hugeLog(ctx.server.root, 1_000_000);
  const artifact = new LocalArtifact(BENCH_CATEGORY);
  await artifact.addLocalFile(small.path);
  await artifact.addLocalFile(huge.path);
  const { id } = await uploadArtifact(ctx.client, artifact, { workspace: ctx.server.workspace });
  const mb = (log: HugeLog) => `${String(Math.round(log.size / 1e6))} MB`;
  const scenario = `log viewer, renderer: 20 jumps, Ctrl+End, a search (${mb(small)} and ${mb(huge)} logs)`;
  const smalls: JumpWalk[] = [];
  const huges: JumpWalk[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    smalls.push(await measureJumps(browser, app, id, small));
    huges.push(await measureJumps(browser, app, id, huge));
    ctx.log(
      `jumps run ${String(i + 1)}: ${JSON.stringify(smalls.at(-1))} ${JSON.stringify(huges.at(-1))}`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
  const counted = (walks: JumpWalk[]) => {
    const heap = median(walks.map((w) => w.after.heapUsed));
    const nodes = median(walks.map((w) => w.after.nodes));
    const heapBefore = median(walks.map((w) => w.before.heapUsed));
    const nodesBefore = median(walks.map((w) => w.before.nodes));
    return { heap, nodes, heapBefore, nodesBefore };
  };
  for (const [log, walks] of [
    [small, smalls],
    [huge, huges],
  ] as const) {
    const c = counted(walks);
    const lines = `${log.lines.toLocaleString('en')} lines`;
    const note = `JS heap ${(c.heapBefore / 1e6).toFixed(1)} → ${(c.heap / 1e6).toFixed(1)} MB, DOM nodes ${String(c.nodesBefore)} → ${String(c.nodes)} (first screen → after the walk), ${String(Math.max(...walks.map((w) => w.after.rows)))} rows in the DOM at most`;
    const at = `${mb(log)} log, ${lines}`;
    ctx.record({
      scenario,
      subject: `app, go to line (20 jumps), ${at}`,
      stats: stats(walks.flatMap((w) => w.jumpMs)),
      note,
    });
    ctx.record({
      scenario,
      subject: `app, Ctrl+End from the top, ${at}`,
      stats: stats(walks.map((w) => w.endMs)),
    });
    ctx.record({
      scenario,
      subject: `app, search whose only hit is the last line, ${at}`,
      stats: stats(walks.map((w) => w.searchMs)),
    });
  }
  const s = counted(smalls);
  const h = counted(huges);
  // The walk holds about as much of the huge log as of the small one: the same bound both.
  const asMuchAsSmall = { max: 1.25, text: '≤ 1.25' };
  ctx.target(
    scenario,
    `JS heap after the walk, ${mb(huge)} log ÷ ${mb(small)} log`,
    h.heap / s.heap,
    asMuchAsSmall,
  );
  ctx.target(
    scenario,
    `DOM nodes after the walk, ${mb(huge)} log ÷ ${mb(small)} log`,
    h.nodes / s.nodes,
    asMuchAsSmall,
  );
  ctx.target(
    scenario,
    `DOM nodes, ${mb(huge)} log, after the walk ÷ first screen`,
    h.nodes / h.nodesBefore,
    {
      max: 1.1,
      text: '≤ 1.1 (flat however far it jumps)',
    },
  );
}

export async function logViewerRenderer(ctx: BenchContext): Promise<void> {
  checkBuild(ctx);
  const big = ctx.sizes.buildLog;
  const mib = (n: number) => `${String(Math.round(n / 2 ** 20))} MiB`;
  const scenario = `log viewer, renderer memory (${mib(SMALL)} and ${mib(big)} build logs)`;
  const dir = join(dataDir(ctx.server.root).host, 'renderer-logs');
  const names = { small: 'small_1.0_amd64.build', big: 'big_1.0_amd64.build' };
  const app = await startApp('current');
  let browser: Browser | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    await writeBuildLog(join(dir, names.small), SMALL);
    await writeBuildLog(join(dir, names.big), big);
    const artifact = new LocalArtifact(BENCH_CATEGORY);
    await artifact.addLocalFile(join(dir, names.small));
    await artifact.addLocalFile(join(dir, names.big));
    const { id } = await uploadArtifact(ctx.client, artifact, { workspace: ctx.server.workspace });

    browser = await launchBrowser();
    const small: Counters[] = [];
    const large: Counters[] = [];
    const smallWrapped: Counters[] = [];
    const largeWrapped: Counters[] = [];
    for (let i = 0; i < ctx.runs; i++) {
      small.push(await measure(browser, app, id, names.small));
      large.push(await measure(browser, app, id, names.big));
      smallWrapped.push(await measure(browser, app, id, names.small, true));
      largeWrapped.push(await measure(browser, app, id, names.big, true));
      ctx.log(
        `run ${String(i + 1)}: heap ${JSON.stringify(small.at(-1))} (small), ${JSON.stringify(large.at(-1))} (big), wrapped ${JSON.stringify(smallWrapped.at(-1))} (small), ${JSON.stringify(largeWrapped.at(-1))} (big)`,
      );
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
    const heapSmall = median(small.map((c) => c.heapUsed));
    const heapBig = median(large.map((c) => c.heapUsed));
    const nodesSmall = median(small.map((c) => c.nodes));
    const nodesBig = median(large.map((c) => c.nodes));
    const row = (subject: string, c: Counters[]) => {
      ctx.record({
        scenario,
        subject,
        stats: stats(c.map((x) => x.walkMs)),
        note: `JS heap ${(median(c.map((x) => x.heapUsed)) / 1e6).toFixed(1)} MB, ${String(median(c.map((x) => x.nodes)))} DOM nodes, ${String(Math.max(...c.map((x) => x.rows)))} rows in the DOM at most`,
      });
    };
    row(`app, the walk through the ${mib(SMALL)} log (the anchor)`, small);
    row(`app, the walk through the ${mib(big)} log`, large);
    // Wrapped lines are measured by a general virtualiser, which keeps an offset and a size
    // per line: recorded beside the target, not under it, so that the cost shows.
    row(`app, the same walk with lines wrapped, ${mib(SMALL)} log`, smallWrapped);
    row(`app, the same walk with lines wrapped, ${mib(big)} log`, largeWrapped);
    ctx.target(scenario, `JS heap, ${mib(big)} log ÷ ${mib(SMALL)} log`, heapBig / heapSmall, {
      max: 1.25,
      text: '≤ 1.25 (does not grow with the file)',
    });
    ctx.target(scenario, `DOM nodes, ${mib(big)} log ÷ ${mib(SMALL)} log`, nodesBig / nodesSmall, {
      max: 1.25,
      text: '≤ 1.25',
    });
    const heapSmallWrapped = median(smallWrapped.map((c) => c.heapUsed));
    const heapBigWrapped = median(largeWrapped.map((c) => c.heapUsed));
    ctx.notes.push(
      `Log viewer, renderer, lines wrapped: ${(heapSmallWrapped / 1e6).toFixed(1)} MB with the ${mib(SMALL)} log and ${(heapBigWrapped / 1e6).toFixed(1)} MB with the ${mib(big)} log (ratio ${(heapBigWrapped / heapSmallWrapped).toFixed(2)}).`,
    );
    await hugeLogJumps(ctx, browser, app);
    ctx.notes.push(
      `Log viewer, renderer: after the same walk (indexed to the end, a search and ${String(STEPS)} steps through its matches, the last line, ${String(WHEEL_STEPS)} wheel steps back up) and a forced GC, the page's JS heap was ${(heapSmall / 1e6).toFixed(1)} MB with the ${mib(SMALL)} log and ${(heapBig / 1e6).toFixed(1)} MB with the ${mib(big)} log (${String(nodesSmall)} and ${String(nodesBig)} DOM nodes).`,
    );
  } finally {
    await browser?.close();
    await app.stop();
    cleanData(ctx.server.root);
  }
}
