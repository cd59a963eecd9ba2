/**
 * A deb822 (Debian control-file) parser: paragraphs of `Field: value` lines, continuation
 * lines, comments, and the clear-signed OpenPGP wrapper of .dsc and .changes files.
 *
 * Values are kept as python-debian keeps them (the first line trimmed, each continuation
 * line appended after a newline with its leading space), because these dictionaries are
 * sent verbatim as `dsc_fields`/`changes_fields` and the server's other clients expect
 * that shape. The signature is not verified (no keyring here): it is only reported.
 *
 * The parser is a single linear pass over the lines, so any input ends in bounded time.
 */
import { DebusineError } from '../../../shared/errors';

export type Deb822Paragraph = Record<string, string>;

export interface Deb822Document {
  paragraphs: Deb822Paragraph[];
  /**
   * For each paragraph, each field's source lines: the line of `Field:` first, then the
   * line of each continuation line, in order (so that an error about the third entry of a
   * file list can name the line it is on, comments and signatures notwithstanding).
   */
  lines: Map<string, number[]>[];
  /** True when the text was wrapped in `-----BEGIN PGP SIGNED MESSAGE-----`. */
  signed: boolean;
}

export interface Deb822Options {
  /** The file name used in error messages. */
  file?: string;
}

const BEGIN_SIGNED = '-----BEGIN PGP SIGNED MESSAGE-----';
const BEGIN_SIGNATURE = '-----BEGIN PGP SIGNATURE-----';
const END_SIGNATURE = '-----END PGP SIGNATURE-----';
/** Field names: printable US-ASCII except ':', not starting with '#' or '-' (deb822(5)). */
const FIELD_NAME = /^[!-9;-~]+$/;

function syntaxError(file: string, line: number, message: string): DebusineError {
  return new DebusineError('validation', `${file}:${String(line)}: ${message}`, {
    file,
    line,
    rule: 'deb822-syntax',
  });
}

interface NumberedLine {
  text: string;
  line: number;
}

/** Removes the clear-signed wrapper; returns the signed body's lines with their numbers. */
function unwrapSignature(lines: string[], file: string): { body: NumberedLine[]; signed: boolean } {
  let first = 0;
  while (first < lines.length && (lines[first] ?? '').trim() === '') first++;
  if ((lines[first] ?? '').trimEnd() !== BEGIN_SIGNED) {
    const body = lines.map((text, i) => ({ text, line: i + 1 }));
    for (const { text, line } of body) {
      if (text.startsWith('-----BEGIN PGP')) {
        throw syntaxError(file, line, 'an OpenPGP armour line outside a signed message');
      }
    }
    return { body, signed: false };
  }
  // Armour headers (Hash: …) end at the first blank line.
  let i = first + 1;
  while (i < lines.length && (lines[i] ?? '').trim() !== '') i++;
  if (i >= lines.length) throw syntaxError(file, first + 1, 'a signed message without a body');
  i++;
  const body: NumberedLine[] = [];
  for (; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.trimEnd() === BEGIN_SIGNATURE) break;
    if (text.startsWith('-----')) {
      throw syntaxError(file, i + 1, 'an unexpected OpenPGP armour line in the signed body');
    }
    // Dash-escaped lines (RFC 4880 §7.1).
    body.push({ text: text.startsWith('- ') ? text.slice(2) : text, line: i + 1 });
  }
  if (i >= lines.length) {
    throw syntaxError(file, lines.length, 'a signed message without its signature block');
  }
  let end = i + 1;
  while (end < lines.length && (lines[end] ?? '').trimEnd() !== END_SIGNATURE) end++;
  if (end >= lines.length) {
    throw syntaxError(file, i + 1, 'the signature block has no END PGP SIGNATURE line');
  }
  for (let rest = end + 1; rest < lines.length; rest++) {
    if ((lines[rest] ?? '').trim() !== '') {
      throw syntaxError(file, rest + 1, 'text after the end of the signature');
    }
  }
  return { body, signed: true };
}

/** Parses deb822 text into paragraphs; throws a `validation` error naming file and line. */
export function parseDeb822(text: string, options: Deb822Options = {}): Deb822Document {
  const file = options.file ?? '<input>';
  if (text.includes('\0')) {
    const line = text.slice(0, text.indexOf('\0')).split('\n').length;
    throw syntaxError(file, line, 'a NUL byte (this is not a text control file)');
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const { body, signed } = unwrapSignature(lines, file);

  const paragraphs: Deb822Paragraph[] = [];
  const fieldLines: Map<string, number[]>[] = [];
  let current: Deb822Paragraph | undefined;
  let currentLines = new Map<string, number[]>();
  let lastField: string | undefined;
  for (const { text: raw, line } of body) {
    if (raw.trim() === '') {
      if (current) {
        paragraphs.push(current);
        fieldLines.push(currentLines);
      }
      current = undefined;
      currentLines = new Map();
      lastField = undefined;
      continue;
    }
    if (raw.startsWith('#')) continue;
    if (raw.startsWith(' ') || raw.startsWith('\t')) {
      if (!current || lastField === undefined) {
        throw syntaxError(file, line, 'a continuation line before any field');
      }
      setField(current, lastField, `${current[lastField] ?? ''}\n${raw.trimEnd()}`);
      currentLines.get(lastField)?.push(line);
      continue;
    }
    const colon = raw.indexOf(':');
    if (colon <= 0) {
      throw syntaxError(file, line, `expected "Field: value", found ${JSON.stringify(cut(raw))}`);
    }
    const name = raw.slice(0, colon);
    if (!FIELD_NAME.test(name) || name.startsWith('-')) {
      throw syntaxError(file, line, `invalid field name ${JSON.stringify(cut(name))}`);
    }
    current ??= {};
    if (Object.hasOwn(current, name)) {
      throw syntaxError(file, line, `duplicate field ${JSON.stringify(name)} in a paragraph`);
    }
    setField(current, name, raw.slice(colon + 1).trim());
    currentLines.set(name, [line]);
    lastField = name;
  }
  if (current) {
    paragraphs.push(current);
    fieldLines.push(currentLines);
  }
  return { paragraphs, lines: fieldLines, signed };
}

/** Defines rather than assigns, so that a field named `__proto__` stays a plain field. */
function setField(paragraph: Deb822Paragraph, name: string, value: string): void {
  Object.defineProperty(paragraph, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function cut(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}

/** Looks a field up case-insensitively, as dpkg does. */
export function getField(paragraph: Deb822Paragraph, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(paragraph)) {
    if (key.toLowerCase() === lower) return value;
  }
  return undefined;
}
