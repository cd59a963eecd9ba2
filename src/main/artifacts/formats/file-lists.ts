/**
 * The file lists of `.dsc` and `.changes` files (Files, Checksums-Sha1, Checksums-Sha256,
 * Checksums-Sha512): their columns, what each entry must be, and which lists a control file
 * must have. Each entry keeps the line it is on, so that a mismatch found later on disk can
 * name it.
 */
import { DebusineError } from '../../../shared/errors';
import type { Deb822Paragraph } from './deb822';

export type ControlKind = 'dsc' | 'changes';
/** python-debian's shape of one entry: lower-case column names, string values. */
export type FileListEntry = Record<string, string>;
export type ListAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

/** One entry of one list: what the control file says about one file. */
export interface ListedChecksum {
  /** The field as written (`Checksums-Sha256`). */
  field: string;
  line: number;
  name: string;
  size: number;
  algorithm: ListAlgorithm;
  digest: string;
}

interface ListSpec {
  algorithm: ListAlgorithm;
  /** The checksum's column name in python-debian's dictionaries. */
  column: string;
  /** dpkg's own pattern for the checksum (Dpkg::Checksums): lower-case hex. */
  pattern: RegExp;
}

const LISTS: Record<string, ListSpec> = {
  files: { algorithm: 'md5', column: 'md5sum', pattern: /^[0-9a-f]{32}$/ },
  'checksums-sha1': { algorithm: 'sha1', column: 'sha1', pattern: /^[0-9a-f]{40}$/ },
  'checksums-sha256': { algorithm: 'sha256', column: 'sha256', pattern: /^[0-9a-f]{64}$/ },
  'checksums-sha512': { algorithm: 'sha512', column: 'sha512', pattern: /^[0-9a-f]{128}$/ },
};

function columnsOf(kind: ControlKind, spec: ListSpec): string[] {
  return kind === 'changes' && spec.algorithm === 'md5'
    ? ['md5sum', 'size', 'section', 'priority', 'name']
    : [spec.column, 'size', 'name'];
}

/**
 * The names dpkg accepts in these lists (Dpkg::Checksums): a letter or digit, then letters,
 * digits and `-+:.,=_~`. So no `/`, no `.`/`..`, no NUL or other control character: a name
 * is one plain file in the control file's own directory, never a path elsewhere.
 */
const SAFE_NAME = /^[0-9a-zA-Z][-+:.,=0-9a-zA-Z_~]+$/;

function whyUnsafe(name: string): string {
  if (name.includes('/') || name.includes('\\')) return 'more than one path component';
  if (name === '.' || name === '..') return 'a relative directory, not a file';
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a control character';
  return 'a character (or first character) dpkg does not allow in file names';
}

export function entryError(
  file: string,
  field: string,
  line: number,
  message: string,
  rule = 'file-list',
): DebusineError {
  return new DebusineError('validation', `${file} line ${String(line)} (${field}): ${message}`, {
    file,
    field,
    line,
    rule,
  });
}

/** Parses one list field; `lines` holds the source line of each line of `value`. */
export function parseFileList(
  kind: ControlKind,
  file: string,
  field: string,
  value: string,
  lines: readonly number[],
): { entries: FileListEntry[]; checksums: ListedChecksum[] } | undefined {
  const spec = LISTS[field.toLowerCase()];
  if (!spec) return undefined;
  const columns = columnsOf(kind, spec);
  const entries: FileListEntry[] = [];
  const checksums: ListedChecksum[] = [];
  const seen = new Map<string, number>();
  value.split('\n').forEach((text, i) => {
    const line = lines[i] ?? lines[0] ?? 0;
    const words = text.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    const fail = (message: string, rule?: string) => entryError(file, field, line, message, rule);
    if (words.length !== columns.length) {
      throw fail(
        `expected ${String(columns.length)} columns (${columns.join(' ')}), ` +
          `found ${JSON.stringify(text.trim())}`,
      );
    }
    const entry: FileListEntry = {};
    columns.forEach((column, c) => {
      entry[column] = words[c] ?? '';
    });
    const name = entry.name ?? '';
    const size = entry.size ?? '';
    const digest = entry[spec.column] ?? '';
    if (!/^\d{1,15}$/.test(size)) throw fail(`${name} has an invalid size ${JSON.stringify(size)}`);
    if (!SAFE_NAME.test(name)) {
      throw fail(
        `not a plain file name, ${whyUnsafe(name)}: '${JSON.stringify(name).slice(1, -1)}'`,
        'file-list.unsafe-name',
      );
    }
    if (!spec.pattern.test(digest)) {
      throw fail(`${name} has an invalid ${spec.algorithm} ${JSON.stringify(digest)}`);
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw fail(`${name} is listed twice (also line ${String(earlier)})`, 'file-list.duplicate');
    }
    seen.set(name, line);
    entries.push(entry);
    checksums.push({ field, line, name, size: Number(size), algorithm: spec.algorithm, digest });
  });
  return { entries, checksums };
}

function fieldName(paragraph: Deb822Paragraph, name: string): string | undefined {
  return Object.keys(paragraph).find((key) => key.toLowerCase() === name.toLowerCase());
}

/**
 * The lists a control file must have.
 *
 * A .changes: Files and Checksums-Sha256. Format 1.8, which every dpkg-genchanges since
 * 2008 writes, has both, and the upload takes the SHA-256 of files it does not send from it.
 *
 * A .dsc: Files always (dpkg-source refuses a .dsc without it). Checksums-Sha256 unless the
 * Format is 1.0 (or absent, which means 1.0): Checksums-Sha1/-Sha256 came in the same dpkg
 * release (1.14.17) as the formats after 1.0, so every tool that writes a 2.0 or 3.0 .dsc
 * writes Checksums-Sha256, and its absence there means an edited .dsc whose files would be
 * tied to it by MD5 alone (for which two different files with the same sum can be made).
 * A 1.0 .dsc from before that release has only Files, which dpkg-source still unpacks
 * (warning "source package uses only weak checksums"), so it is accepted on its MD5 sums.
 * Checksums-Sha1 is checked when present, never required: the most dpkg-source asks for
 * (--require-strong-checksums) is a strong checksum, and SHA-1 is not one.
 */
function requiredLists(kind: ControlKind, paragraph: Deb822Paragraph): string[] {
  if (kind === 'changes') return ['Files', 'Checksums-Sha256'];
  const format = formatOf(paragraph);
  return format === '' || /^1\.0(\s|$)/.test(format) ? ['Files'] : ['Files', 'Checksums-Sha256'];
}

function formatOf(paragraph: Deb822Paragraph): string {
  const key = fieldName(paragraph, 'Format');
  return (key === undefined ? '' : (paragraph[key] ?? '')).trim();
}

/**
 * Checks the lists as a whole: the required ones are there and not empty, and every list
 * names the same files with the same sizes as Files (as dpkg requires).
 */
export function checkLists(
  kind: ControlKind,
  file: string,
  paragraph: Deb822Paragraph,
  checksums: readonly ListedChecksum[],
): void {
  for (const required of requiredLists(kind, paragraph)) {
    if (fieldName(paragraph, required) === undefined) {
      const format = kind === 'dsc' ? ` (Format ${formatOf(paragraph) || '1.0'})` : '';
      throw new DebusineError(
        'validation',
        `'${file}' does not contain ${required} field, which a .${kind}${format} must have`,
        { file, field: required, rule: `${kind}-required-field` },
      );
    }
  }
  const files = checksums.filter((c) => c.algorithm === 'md5');
  if (files.length === 0) {
    throw new DebusineError('validation', `'${file}' lists no file in its Files field`, {
      file,
      field: 'Files',
      rule: `${kind}-required-field`,
    });
  }
  const sizes = new Map(files.map((c) => [c.name, c.size]));
  for (const entry of checksums) {
    const size = sizes.get(entry.name);
    if (size === undefined) {
      throw entryError(file, entry.field, entry.line, `${entry.name} is not listed in Files`);
    }
    if (size !== entry.size) {
      throw entryError(
        file,
        entry.field,
        entry.line,
        `${entry.name} is listed with ${String(entry.size)} bytes, Files says ${String(size)}`,
      );
    }
  }
  for (const field of Object.keys(paragraph).filter((key) => LISTS[key.toLowerCase()])) {
    const names = new Set(checksums.filter((c) => c.field === field).map((c) => c.name));
    const absent = files.find((c) => !names.has(c.name));
    if (absent) {
      throw entryError(
        file,
        absent.field,
        absent.line,
        `${absent.name} is listed in Files but not in ${field}`,
      );
    }
  }
}
