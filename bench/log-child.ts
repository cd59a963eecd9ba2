/**
 * Opens one build log the way the app's viewer does, in its own process so that its memory
 * can be read: the log store downloads it (verified) into a fresh cache, the first screen
 * is asked for as soon as lines arrive, then the whole file is searched. Prints one JSON
 * line: times from the open, peak RSS (VmHWM) before and after.
 * Usage: jiti bench/log-child.ts <apiUrl> <scope> <artifactId> <path> <cacheDir> <word> <regex>
 * [<more>] (token in BENCH_TOKEN), where <more> is JSON: `queries` searched one after the
 * other, each timed with its count and first matching line, and `jumps`, lines whose
 * window (the renderer's 200 lines around them) is read as "go to line" does, each timed.
 */
import { DebusineClient } from '../src/main/api/client';
import { LogCache } from '../src/main/logs/log-cache';
import { LogStore } from '../src/main/logs/log-store';
import type { LogState } from '../src/shared/log-types';
import { ownMemory, reportMemory } from './lib/own-memory';

const [apiUrl, scope, artifactId, path, cacheDir, word, regex, moreJson] = process.argv.slice(2);

interface More {
  queries: { query: string; caseSensitive: boolean }[];
  jumps: number[];
}
const more = moreJson === undefined ? null : (JSON.parse(moreJson) as More);
/** The renderer's windows (queries/log-window-cache.ts): 200 lines, from a multiple of 200. */
const WINDOW = 200;
if (!apiUrl || !scope || !artifactId || !path || !cacheDir || !word || !regex) {
  throw new Error('usage: log-child.ts api scope artifactId path cacheDir word regex');
}
const client = new DebusineClient({ apiUrl, scope, token: process.env.BENCH_TOKEN });
await client.whoami();
const before = ownMemory();
const SCREEN = 60;
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
let firstMiB: number | undefined;
let firstScreen: number | undefined;
let ready: number | undefined;
let handle = '';
let asking = false;
const start = process.hrtime.bigint();
const store = new LogStore({
  cache: new LogCache(cacheDir),
  emit: (state: LogState) => {
    if (firstMiB === undefined && state.bytes >= 2 ** 20) firstMiB = ms(start);
    if (state.state === 'ready' && ready === undefined) ready = ms(start);
    void askFirstScreen();
  },
});

/** What the viewer does: asks the first screen of lines whenever more has arrived. */
async function askFirstScreen(): Promise<void> {
  if (firstScreen !== undefined || asking || handle === '') return;
  asking = true;
  try {
    const window = await store.lines(handle, 0, SCREEN);
    if (window.lines.length === SCREEN) firstScreen = ms(start);
  } finally {
    asking = false;
  }
}

const opened = await store.open({ apiUrl, client: () => client }, Number(artifactId), path);
handle = opened.handle;
await askFirstScreen();
const state = await store.settled(handle);
if (state.state !== 'ready')
  throw new Error(`the log did not load: ${JSON.stringify(state.error)}`);
await askFirstScreen();
const searchStart = process.hrtime.bigint();
const plain = await store.search(handle, word, { regex: false, caseSensitive: true }, 0, 'next');
const searchPlain = ms(searchStart);
const regexStart = process.hrtime.bigint();
const byRegex = await store.search(handle, regex, { regex: true, caseSensitive: true }, 0, 'next');
const searchRegex = ms(regexStart);
const searches: { query: string; ms: number; matches: number; line: number | null }[] = [];
const jumps: number[] = [];
for (const { query, caseSensitive } of more?.queries ?? []) {
  const from = process.hrtime.bigint();
  const found = await store.search(handle, query, { regex: false, caseSensitive }, 0, 'next');
  searches.push({ query, ms: ms(from), matches: found.matches, line: found.line });
}
for (const line of more?.jumps ?? []) {
  const from = process.hrtime.bigint();
  const window = await store.lines(handle, Math.floor(line / WINDOW) * WINDOW, WINDOW);
  if (window.lines.length === 0) throw new Error(`no lines around line ${String(line)}`);
  jumps.push(ms(from));
}
await store.close(handle);
await client.close();
reportMemory(before, {
  firstMiB,
  firstScreen,
  ready,
  lines: state.lines,
  searchPlain,
  searchRegex,
  matchesPlain: plain.matches,
  matchesRegex: byRegex.matches,
  searches,
  jumps,
});
