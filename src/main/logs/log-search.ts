/**
 * Search over a whole log in main, streaming. Plain text is looked for in the file's bytes
 * (byte-search.ts, at about grep's speed); a regular expression, or text that only the
 * decoded lines can answer, is tested on a run of lines at a time, read and decoded (never
 * the whole file as one string; see line-reader.ts). The event loop gets a turn between
 * reads. The numbers of the matching lines are kept per query (a compact array, a few of
 * the latest queries per file), so "next", "previous" and the count are answered without
 * reading the file again, and a file still arriving is searched only in its new lines.
 */
import type { FileHandle } from 'node:fs/promises';
import { DebusineError } from '../../shared/errors';
import type { LogSearchResult, SearchUntil } from '../../shared/log-types';
import type { LineIndex } from './line-index';
import { byteNeedle, searchBytes, type ByteNeedle } from './byte-search';
import { readRuns } from './line-reader';
import { compileQuery, type QueryOptions, type RunScan } from './log-query';

const KEPT_QUERIES = 4;
/** A search that has not finished after this long stops, and says so. */
const TIME_LIMIT_MS = 30_000;

export interface SearchSource {
  file: FileHandle;
  index: LineIndex;
}

class Matches {
  lines = new Uint32Array(256);
  count = 0;
  searched = 0;
  running: Promise<void> | undefined;
  /** Finds waiting for a matching line at or after `line`, as the pass adds them. */
  readonly waiting = new Set<{ line: number; resolve: (line: number) => void }>();

  /** Exactly one of the two: the bytes looked for, or the test of a decoded run. */
  constructor(
    readonly needle: ByteNeedle | null,
    readonly scan: RunScan | null,
  ) {}

  add(line: number): void {
    if (this.count === this.lines.length) {
      const next = new Uint32Array(this.lines.length * 2);
      next.set(this.lines);
      this.lines = next;
    }
    this.lines[this.count++] = line;
    if (this.waiting.size === 0) return;
    for (const waiter of this.waiting) {
      if (line < waiter.line) continue;
      this.waiting.delete(waiter);
      waiter.resolve(line);
    }
  }

  /** Settles at the first matching line at or after `line` that a pass adds; never otherwise. */
  reach(line: number): { found: Promise<number>; cancel: () => void } {
    let waiter: { line: number; resolve: (line: number) => void } | undefined;
    const found = new Promise<number>((resolve) => {
      waiter = { line, resolve };
      this.waiting.add(waiter);
    });
    return {
      found,
      cancel: () => {
        if (waiter) this.waiting.delete(waiter);
      },
    };
  }

  /** The first index whose line is >= `line`. */
  lowerBound(line: number): number {
    let [lo, hi] = [0, this.count];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.lines[mid] ?? 0) < line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * A search as a page asks it, for a stored or a live log alike: the query and how to read
 * it, the line it starts from and which way it goes, and whether the answer may come
 * before the count (`until`, 'counted' when not said).
 */
export type SearchAsk = [
  query: string,
  options: QueryOptions,
  fromLine: number,
  direction: 'next' | 'previous',
  until?: SearchUntil,
];

export class LogSearches {
  readonly #kept = new Map<string, Matches>();
  readonly #timeLimit: number;

  constructor(timeLimitMs = TIME_LIMIT_MS) {
    this.#timeLimit = timeLimitMs;
  }

  /**
   * The matching line from `fromLine` on (`next`: it or the first after it; `previous`:
   * it or the last before it), wrapping around, and how many lines match.
   * `source` is null while no byte of the file has arrived. With `until: 'found'`, a
   * search forwards answers as soon as its line is found, and the pass goes on counting
   * for the next ask.
   */
  async find(source: SearchSource | null, ...ask: SearchAsk): Promise<LogSearchResult> {
    const [query, options, fromLine, direction, until = 'counted'] = ask;
    const matches = this.#matches(query, options);
    let counted = true;
    // With no source (nothing arrived yet), the query is still checked: a bad one is said.
    if (source) {
      const pass = this.#extend(matches, source);
      const early = until === 'found' && direction === 'next';
      if (!early) await pass;
      else if (matches.lowerBound(fromLine) === matches.count) {
        // The pass adds lines in order from the first not yet searched, so the first it
        // adds at or after `fromLine` is the one asked for. Racing it with the pass's end
        // also gives the pass's failure a handler when the line came first: the next ask
        // goes on from where it stopped, and says why if it stops again.
        const reach = matches.reach(fromLine);
        try {
          counted = await Promise.race([pass.then(() => true), reach.found.then(() => false)]);
        } finally {
          reach.cancel();
        }
      } else {
        // Already found by an earlier pass (or one still running): only the count waits.
        counted = matches.running === undefined && matches.searched === source.index.lines;
        pass.catch(() => undefined);
      }
    }
    const complete =
      counted &&
      source !== null &&
      source.index.finished &&
      matches.searched === source.index.lines;
    const base = { matches: matches.count, complete, searchedLines: matches.searched, counted };
    if (matches.count === 0) return { ...base, line: null, ordinal: null, wrapped: false };
    let at: number;
    let wrapped = false;
    if (direction === 'next') {
      at = matches.lowerBound(fromLine);
      if (at === matches.count) [at, wrapped] = [0, true];
    } else {
      at = matches.lowerBound(fromLine + 1) - 1;
      if (at < 0) [at, wrapped] = [matches.count - 1, true];
    }
    return { ...base, line: matches.lines[at] ?? null, ordinal: at + 1, wrapped };
  }

  #matches(query: string, options: QueryOptions): Matches {
    const key = `${options.regex ? 'r' : 't'}${options.caseSensitive ? 'c' : 'i'}:${query}`;
    let matches = this.#kept.get(key);
    if (matches) this.#kept.delete(key);
    else {
      const needle = options.regex ? null : byteNeedle(query, options.caseSensitive);
      matches = new Matches(needle, needle ? null : compileQuery(query, options));
    }
    this.#kept.set(key, matches);
    for (const old of this.#kept.keys()) {
      if (this.#kept.size <= KEPT_QUERIES) break;
      this.#kept.delete(old);
    }
    return matches;
  }

  /** Searches the lines read since the last search with this query (one pass at a time). */
  async #extend(matches: Matches, source: SearchSource): Promise<void> {
    while (matches.running) await matches.running;
    if (matches.searched >= source.index.lines) return;
    const run = this.#run(matches, source);
    matches.running = run;
    try {
      await run;
    } finally {
      matches.running = undefined;
    }
  }

  async #run(matches: Matches, { file, index }: SearchSource): Promise<void> {
    const started = Date.now();
    const to = index.lines;
    const late = (): boolean => Date.now() - started > this.#timeLimit;
    const { needle, scan } = matches;
    if (needle) {
      matches.searched = await searchBytes({
        file,
        index,
        needle,
        from: matches.searched,
        to,
        found: (line) => {
          matches.add(line);
        },
        stop: late,
      });
    } else if (scan) {
      await readRuns(file, index, matches.searched, to, (run) => {
        scan(run.text, (k) => {
          matches.add(run.first + k);
        });
        matches.searched = run.first + run.count;
        return late() ? false : undefined;
      });
    }
    // Stopped before the end: only the time limit stops it.
    if (matches.searched < to) {
      throw new DebusineError(
        'timeout',
        `The search stopped after ${String(this.#timeLimit / 1000)} s, at line ${String(matches.searched)} of ${String(to)}; try a simpler query`,
        { rule: 'search-time' },
      );
    }
  }
}
