/**
 * `DEBSIGN_KEYID` and `DEBSIGN_MAINT` as debsign reads them. debsign sources
 * /etc/devscripts.conf, then ~/.devscripts, in a shell, after resetting both variables to
 * empty: the environment does not count, the later file's assignment wins, and an empty
 * one there unsets what the earlier file set (signing-debsign.test.ts has the real debsign
 * sign with the key a ~/.devscripts names, and checks this module reads the same).
 *
 * The app runs no shell on them (a configuration file is not a program the app should
 * run): it reads plain assignments (an unquoted word, single or double quotes, `export`)
 * and refuses the ones it cannot read without a shell (an expansion, a command
 * substitution, an assignment inside an `if`) rather than sign with another key than
 * debsign would.
 */
import { join } from 'node:path';
import { DebusineError } from '../../shared/errors';
import { readSmallFile } from '../small-file';

export const DEBSIGN_VARIABLES = ['DEBSIGN_KEYID', 'DEBSIGN_MAINT'] as const;
export type DebsignVariable = (typeof DEBSIGN_VARIABLES)[number];

export interface DebsignSetting {
  value: string;
  file: string;
  /** 1-based. */
  line: number;
}

/** Each variable's last non-empty assignment across the files; absent when unset. */
export type DebsignConfig = Partial<Record<DebsignVariable, DebsignSetting>>;

/** The files debsign reads, in its order (the later wins). */
export function devscriptsFiles(home: string): string[] {
  return ['/etc/devscripts.conf', join(home, '.devscripts')];
}

/** A configuration file is a few lines of shell; one larger than this is not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads the files in order; a missing or unreadable one is skipped, as `[ -r $file ]` does. */
export async function readDebsignConfig(files: readonly string[]): Promise<DebsignConfig> {
  const found = new Map<DebsignVariable, DebsignSetting>();
  for (const file of files) {
    const text = await readConfigFile(file);
    if (text === undefined) continue;
    for (const [name, setting] of parseDebsignAssignments(text, file)) {
      // debsign uses `${DEBSIGN_KEYID:-…}`: empty is the same as unset.
      if (setting.value === '') found.delete(name);
      else found.set(name, setting);
    }
  }
  return Object.fromEntries(found);
}

async function readConfigFile(file: string): Promise<string | undefined> {
  const read = await readSmallFile(file, MAX_CONFIG_BYTES);
  if (read === undefined || 'text' in read) return read?.text;
  throw unreadable(
    file,
    0,
    read.tooLarge > MAX_CONFIG_BYTES + 1
      ? `it is ${String(read.tooLarge)} bytes, more than a configuration file`
      : 'it grew past the size of a configuration file',
  );
}

function unreadable(file: string, line: number, why: string): DebusineError {
  const where = line > 0 ? `${file}, line ${String(line)}` : file;
  return new DebusineError(
    'validation',
    `Cannot read the debsign settings of ${where}: ${why}. Debusine Desktop reads plain ` +
      'assignments (DEBSIGN_KEYID=KEY) without running a shell; write it that way, or choose ' +
      'the key to sign with.',
    { rule: 'signing.devscripts-config', file, line },
  );
}

/** Words that open and close a compound command: an assignment inside one may not run. */
const OPENERS = new Set(['if', 'case', 'for', 'while', 'until', 'select', 'function', '{', '(']);
const CLOSERS = new Set(['fi', 'esac', 'done', '}', ')']);

/**
 * The assignments of DEBSIGN_KEYID and DEBSIGN_MAINT in one file, in order (the last of a
 * name wins). Throws `validation` on an assignment it cannot read as the shell would.
 */
export function parseDebsignAssignments(
  text: string,
  file: string,
): [DebsignVariable, DebsignSetting][] {
  const found: [DebsignVariable, DebsignSetting][] = [];
  const lines = text.split('\n');
  let depth = 0;
  for (const [index, raw] of lines.entries()) {
    const number = index + 1;
    const line = raw.replace(/\r$/, '');
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const first = /^[^\s;&|]+/.exec(trimmed)?.[0] ?? '';
    if (CLOSERS.has(first)) depth = Math.max(0, depth - 1);
    const mentions = DEBSIGN_VARIABLES.filter((name) => new RegExp(`\\b${name}=`).test(line));
    if (mentions.length > 0) {
      const match = /^(?:export\s+)?(DEBSIGN_KEYID|DEBSIGN_MAINT)=(.*)$/.exec(trimmed);
      const name = match?.[1] as DebsignVariable | undefined;
      if (!match || name === undefined) {
        throw unreadable(file, number, `${mentions.join(', ')} is not set by a plain assignment`);
      }
      if (depth > 0) {
        throw unreadable(file, number, `${name} is set inside a conditional or a loop`);
      }
      const value = shellWord(match[2] ?? '', (why) => unreadable(file, number, why));
      found.push([name, { value, file, line: number }]);
      continue;
    }
    // A compound command, or a function whose body opens on this line (`name() {`).
    if (OPENERS.has(first) || /\{\s*$/.test(trimmed)) depth++;
    // A one-line `if …; then …; fi` (or loop) opens and closes on the same line.
    const last = /[^\s;]+\s*;?\s*$/.exec(trimmed)?.[0].replace(/;?\s*$/, '') ?? '';
    if (OPENERS.has(first) && CLOSERS.has(last)) depth = Math.max(0, depth - 1);
  }
  return found;
}

/**
 * The value of `NAME=<rest>` as the shell assigns it, for the forms that need no shell to
 * read: unquoted characters, '…' and "…" (with \" \\ \$ \` escapes), then nothing but
 * blanks, a `;`, an `export` of the name, or a comment.
 */
function shellWord(rest: string, fail: (why: string) => DebusineError): string {
  let value = '';
  let i = 0;
  while (i < rest.length) {
    const c = rest.charAt(i);
    if (c === "'") {
      const end = rest.indexOf("'", i + 1);
      if (end < 0) throw fail('a quote is not closed on its line');
      value += rest.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      let closed = false;
      while (i < rest.length) {
        const d = rest.charAt(i);
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '$' || d === '`') throw fail('the value uses an expansion');
        if (d === '\\' && i + 1 < rest.length && '"\\$`'.includes(rest.charAt(i + 1))) {
          value += rest.charAt(i + 1);
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      if (!closed) throw fail('a quote is not closed on its line');
    } else if (c === '\\') {
      if (i + 1 >= rest.length) throw fail('the value continues on the next line');
      value += rest.charAt(i + 1);
      i += 2;
    } else if (/[\s;]/.test(c)) {
      break;
    } else if ('$`(){}<>|&*?[]~'.includes(c)) {
      throw fail(`the value uses the shell syntax ${c}`);
    } else {
      value += c;
      i++;
    }
  }
  const after = rest.slice(i);
  if (!/^\s*(?:;\s*(?:export\s+[A-Z_][A-Z0-9_ ]*)?\s*;?\s*)?(?:#.*)?$/.test(after)) {
    // `NAME=value command` sets the name for that command only, not for debsign.
    throw fail('the line goes on after the value');
  }
  return value;
}
