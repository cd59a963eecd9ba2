/**
 * A search query as a test of one line. A bad regular expression is refused with the
 * pattern and the engine's reason. Regular expressions run on the main process, where one
 * that backtracks exponentially would freeze the app, and JavaScript cannot stop a
 * regular expression once it runs; so two guards:
 *
 * - every line is searched in its first LINE_LIMIT bytes only (what the viewer shows of
 *   it), which bounds the polynomial cases;
 * - a repetition of a group that itself repeats (`(a+)+`, `(x*y)*`, `(a+){2,}`: "star
 *   height" above one, the usual shape of the exponential ones) is refused before the
 *   search starts. Alternatives that overlap under a repetition (`(a|a)*`) are not
 *   detected; the per-line limit is the only guard there.
 */
import { DebusineError } from '../../shared/errors';

export interface QueryOptions {
  regex: boolean;
  caseSensitive: boolean;
}

/**
 * A query over a run of lines (line-reader.ts: lines joined by LF): calls `found` with the
 * place in the run (from 0) of each line that matches, once per line, in order.
 */
export type RunScan = (text: string, found: (lineInRun: number) => void) => void;

function invalid(query: string, reason: string, rule: string): DebusineError {
  return new DebusineError(
    'validation',
    `The regular expression ${JSON.stringify(query)} is not valid: ${reason}`,
    { field: 'query', rule },
  );
}

/** Length of the group prefix after `(` at `at`: `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>`. */
function groupPrefix(pattern: string, at: number): number {
  if (pattern[at] !== '?') return 0;
  const next = pattern[at + 1];
  if (next === ':' || next === '=' || next === '!') return 2;
  if (next === '<') {
    if (pattern[at + 2] === '=' || pattern[at + 2] === '!') return 3;
    const close = pattern.indexOf('>', at);
    return close === -1 ? 1 : close - at + 1;
  }
  return 1;
}

/** The quantifier at `at`, if any: its length and whether it repeats (more than once). */
function quantifier(pattern: string, at: number): { length: number; repeats: boolean } | null {
  const c = pattern[at];
  let length: number;
  let repeats: boolean;
  if (c === '*' || c === '+') [length, repeats] = [1, true];
  else if (c === '?') [length, repeats] = [1, false];
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at, at + 24));
    if (!m) return null;
    length = m[0].length;
    const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    repeats = max > 1;
  } else return null;
  if (pattern[at + length] === '?') length++;
  return { length, repeats };
}

/** A group that repeats and contains a repetition, as written; null when there is none. */
export function nestedRepetition(pattern: string): string | null {
  const groups: { start: number; repeats: boolean }[] = [];
  let closed: { start: number; repeats: boolean } | null = null;
  for (let at = 0; at < pattern.length;) {
    const c = pattern[at];
    const q = quantifier(pattern, at);
    if (q) {
      if (q.repeats && closed?.repeats) return pattern.slice(closed.start, at + q.length);
      const top = groups[groups.length - 1];
      if (q.repeats && top) top.repeats = true;
      closed = null;
      at += q.length;
      continue;
    }
    closed = null;
    if (c === '\\') at += 2;
    else if (c === '[') {
      let end = at + 1;
      while (end < pattern.length && pattern[end] !== ']') end += pattern[end] === '\\' ? 2 : 1;
      at = end + 1;
    } else if (c === '(') {
      groups.push({ start: at, repeats: false });
      at += 1 + groupPrefix(pattern, at + 1);
    } else if (c === ')') {
      const group = groups.pop();
      if (group) {
        closed = group;
        const parent = groups[groups.length - 1];
        if (parent && group.repeats) parent.repeats = true;
      }
      at++;
    } else at++;
  }
  return null;
}

/** The engine's reason, without the pattern it repeats ("Unterminated group"). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = message.lastIndexOf(': ');
  return at === -1 ? message : message.slice(at + 2);
}

/**
 * Plain text is looked for in the whole run at once (indexOf, or a case-insensitive search
 * for the literal), going on at the next line after each hit: most lines of a log do not
 * match, and are then never looked at one by one. A query with a line end matches no line.
 */
function plainScan(query: string, caseSensitive: boolean): RunScan {
  if (/[\r\n]/.test(query)) return () => undefined;
  const literal = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const find = (text: string, from: number): number => {
    if (caseSensitive) return text.indexOf(query, from);
    literal.lastIndex = from;
    return literal.exec(text)?.index ?? -1;
  };
  return (text, found) => {
    let line = 0;
    let lineStart = 0;
    for (let hit = find(text, 0); hit !== -1;) {
      for (let nl = text.indexOf('\n', lineStart); nl !== -1 && nl < hit;) {
        line++;
        lineStart = nl + 1;
        nl = text.indexOf('\n', lineStart);
      }
      found(line);
      const end = text.indexOf('\n', hit);
      if (end === -1) return;
      [line, lineStart] = [line + 1, end + 1];
      hit = find(text, lineStart);
    }
  };
}

/**
 * A regular expression is tried line by line: over a whole run, a class such as `[^x]*` or
 * `\s*` would run across line ends, from every position to the end of the run.
 */
function regexScan(compiled: RegExp): RunScan {
  return (text, found) => {
    const lines = text.split('\n');
    for (let k = 0; k < lines.length; k++) if (compiled.test(lines[k] ?? '')) found(k);
  };
}

export function compileQuery(query: string, options: QueryOptions): RunScan {
  if (!options.regex) return plainScan(query, options.caseSensitive);
  let compiled: RegExp;
  try {
    compiled = new RegExp(query, options.caseSensitive ? '' : 'i');
  } catch (error) {
    throw invalid(query, reasonOf(error), 'regex-syntax');
  }
  const nested = nestedRepetition(query);
  if (nested !== null) {
    throw invalid(
      query,
      `${JSON.stringify(nested)} repeats a group that itself repeats, which can take exponential time on a long line; write it without the nested repetition`,
      'regex-nested-repetition',
    );
  }
  return regexScan(compiled);
}
