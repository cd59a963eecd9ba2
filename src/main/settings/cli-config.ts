/**
 * Reading the Debusine CLI's `~/.config/debusine/client/config.ini`.
 *
 * The CLI parses it with Python's configparser, so this parser follows configparser's
 * rules rather than the `ini` package's: `key = value` or `key: value`, keys lower-cased,
 * full-line `#`/`;` comments, indented continuation lines, a [DEFAULT] section, `%%` and
 * `%(key)s` interpolation, and duplicate sections or keys are errors. (The `ini` package
 * would also split `[server:debusine.debian.net]` at its dots, and never reports a line.)
 * Every error names the file and the line.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DebusineError } from '../../shared/errors';

/** $HOME/.config/debusine/client/config.ini: the CLI ignores XDG_CONFIG_HOME. */
export function defaultCliConfigPath(home = homedir()): string {
  return join(home, '.config', 'debusine', 'client', 'config.ini');
}

interface RawValue {
  value: string;
  line: number;
}
type RawSection = Map<string, RawValue>;

export interface IniDocument {
  /** Section name → key → value, in file order, interpolation applied. */
  sections: Map<string, Map<string, { value: string; line: number }>>;
  /** The line of each section header, for messages. */
  sectionLines: Map<string, number>;
}

function fail(file: string, line: number, message: string): DebusineError {
  return new DebusineError('validation', `${file}, line ${String(line)}: ${message}`, {
    file,
    line,
  });
}

/** Parses INI text the way configparser does (strict mode, BasicInterpolation). */
export function parseIni(text: string, file: string): IniDocument {
  const defaults: RawSection = new Map();
  const raw = new Map<string, RawSection>();
  const sectionLines = new Map<string, number>();
  let current: RawSection | undefined;
  let lastKey: { section: RawSection; key: string; indent: number } | undefined;

  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const lineNo = index + 1;
    const trimmed = rawLine.trim();
    const indent = rawLine.length - rawLine.trimStart().length;
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) {
      // A blank line ends a value; configparser keeps it only inside a continued value.
      if (trimmed === '') lastKey = undefined;
      return;
    }
    if (lastKey && indent > lastKey.indent) {
      const entry = lastKey.section.get(lastKey.key);
      if (entry) entry.value += `\n${trimmed}`;
      return;
    }
    const header = /^\[(.+)\]$/.exec(trimmed);
    if (header?.[1] !== undefined) {
      const name = header[1];
      lastKey = undefined;
      if (name === 'DEFAULT') {
        current = defaults;
        return;
      }
      if (raw.has(name)) {
        throw fail(
          file,
          lineNo,
          `section [${name}] appears twice (first on line ${String(sectionLines.get(name))})`,
        );
      }
      current = new Map();
      raw.set(name, current);
      sectionLines.set(name, lineNo);
      return;
    }
    if (trimmed.startsWith('[')) {
      throw fail(
        file,
        lineNo,
        `a section header must look like [name]: ${JSON.stringify(trimmed)}`,
      );
    }
    const delimiter = /[=:]/.exec(trimmed);
    if (!delimiter) {
      // The line is not echoed: it may be a token written without its "token =".
      throw fail(file, lineNo, 'expected "key = value" (or a [section] header, or a # comment)');
    }
    if (!current) {
      throw fail(file, lineNo, 'a setting appears before any [section] header');
    }
    const key = trimmed.slice(0, delimiter.index).trim().toLowerCase();
    if (key === '') throw fail(file, lineNo, 'a setting has no name before its "="');
    if (current.has(key)) {
      throw fail(file, lineNo, `"${key}" is set twice in the same section`);
    }
    current.set(key, { value: trimmed.slice(delimiter.index + 1).trim(), line: lineNo });
    lastKey = { section: current, key, indent };
  });

  const sections: IniDocument['sections'] = new Map();
  for (const [name, section] of raw) {
    const merged = new Map([...defaults, ...section]);
    const resolved = new Map<string, { value: string; line: number }>();
    for (const [key, entry] of merged) {
      resolved.set(key, { value: interpolate(merged, key, file, 0), line: entry.line });
    }
    sections.set(name, resolved);
  }
  return { sections, sectionLines };
}

/** configparser's BasicInterpolation: `%%` → `%`, `%(name)s` → another key's value. */
function interpolate(section: RawSection, key: string, file: string, depth: number): string {
  const entry = section.get(key);
  if (!entry) return '';
  if (depth > 10) throw fail(file, entry.line, `"${key}" refers to itself through %(...)s`);
  return entry.value.replace(/%(%|\(([^)]*)\)s|.?)/g, (_match, what: string, name?: string) => {
    if (what === '%') return '%';
    if (name !== undefined) {
      const lowered = name.toLowerCase();
      if (!section.has(lowered)) {
        throw fail(file, entry.line, `"${key}" refers to %(${name})s, which is not set`);
      }
      return interpolate(section, lowered, file, depth + 1);
    }
    throw fail(
      file,
      entry.line,
      `"${key}" contains a lone "%": write %% for a percent sign (the CLI reads it that way)`,
    );
  });
}

/** One `[server:NAME]` section. */
export interface CliServer {
  name: string;
  apiUrl: string;
  scope: string;
  /** Absent when the section has no token (the CLI would refuse it). */
  token?: string;
  defaultWorkspace?: string;
  line: number;
}

export interface CliConfig {
  file: string;
  defaultServer?: string;
  servers: CliServer[];
  /** Sections that cannot become profiles, with the reason. */
  problems: { section: string; line: number; reason: string }[];
}

/** Interprets the parsed file: [General] default-server and the [server:NAME] sections. */
export function interpretCliConfig(document: IniDocument, file: string): CliConfig {
  const config: CliConfig = { file, servers: [], problems: [] };
  const defaultServer = document.sections.get('General')?.get('default-server')?.value;
  if (defaultServer) config.defaultServer = defaultServer;
  for (const [section, values] of document.sections) {
    if (!section.startsWith('server:')) continue;
    const line = document.sectionLines.get(section) ?? 0;
    const name = section.slice('server:'.length);
    const apiUrl = values.get('api-url')?.value;
    const scope = values.get('scope')?.value;
    const missing = [!apiUrl && 'api-url', !scope && 'scope'].filter(Boolean);
    if (!apiUrl || !scope || name === '') {
      config.problems.push({
        section,
        line,
        reason: name === '' ? 'the section has no server name' : `missing ${missing.join(' and ')}`,
      });
      continue;
    }
    const server: CliServer = { name, apiUrl, scope, line };
    const token = values.get('token')?.value;
    if (token) server.token = token;
    const workspace = values.get('default-workspace')?.value;
    if (workspace) server.defaultWorkspace = workspace;
    config.servers.push(server);
  }
  if (config.defaultServer && !config.servers.some((s) => s.name === config.defaultServer)) {
    const line = document.sections.get('General')?.get('default-server')?.line ?? 0;
    config.problems.push({
      section: 'General',
      line,
      reason: `default-server "${config.defaultServer}" has no [server:${config.defaultServer}] section`,
    });
  }
  return config;
}

/** Reads and interprets a CLI config file (read-only: the file is never written). */
export async function readCliConfig(path = defaultCliConfigPath()): Promise<CliConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DebusineError(
      code === 'ENOENT' ? 'not-found' : 'internal',
      code === 'ENOENT'
        ? `There is no Debusine CLI configuration at ${path}`
        : `Cannot read ${path}: ${(error as Error).message}`,
      { file: path },
    );
  }
  return interpretCliConfig(parseIni(text, path), path);
}
