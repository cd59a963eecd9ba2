/**
 * Readers for `.dsc` and `.changes` files, producing the dictionaries python-debian's
 * `deb822.Dsc`/`deb822.Changes` produce: field names keep their case, and the file lists
 * (Files, Checksums-*) become lists of objects with lower-case keys and string sizes.
 * The server stores these verbatim as `dsc_fields`/`changes_fields`.
 */
import { basename } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import { hashBuffer, withFile } from '../hashing/checksums';
import { getField, parseDeb822, type Deb822Paragraph } from '../formats/deb822';
import { readingStarts, rememberDigests } from '../hashing/digest-cache';
import {
  checkLists,
  parseFileList,
  type FileListEntry,
  type ListedChecksum,
} from '../formats/file-lists';

/** A .dsc or .changes larger than this is certainly not one. */
export const MAX_CONTROL_FILE = 16 * 1024 * 1024;

export type { FileListEntry } from '../formats/file-lists';
/** A line of Package-List, its columns by name (see packageList). */
export type PackageListEntry = Record<string, string>;
export type ControlFields = Record<
  string,
  string | FileListEntry[] | PackageListEntry | PackageListEntry[]
>;

export interface ListedFile {
  name: string;
  size: number;
  md5sum?: string | undefined;
  sha256?: string | undefined;
}

export interface ParsedControlFile {
  fields: ControlFields;
  signed: boolean;
  /** Files named in the `Files` field. */
  files: ListedFile[];
  /** Names with size and sha256 from `Checksums-Sha256` (empty when the field is absent). */
  sha256: ListedFile[];
  /** Every entry of every list, with its line, to compare with the files on disk. */
  checksums: ListedChecksum[];
}

/**
 * Reads a small text file whole. Its digests are remembered for this version of it (see
 * digest-cache.ts), so that uploading a .dsc or .changes just parsed does not read it again.
 */
export async function readTextFile(path: string, limit = MAX_CONTROL_FILE): Promise<string> {
  return withFile(path, async (handle) => {
    const started = readingStarts();
    const before = await handle.stat({ bigint: true });
    if (before.size > BigInt(limit)) {
      throw new DebusineError(
        'validation',
        `${path} is ${String(before.size)} bytes: too large for a control file (limit ${String(limit)})`,
        { file: path, rule: 'control-file-size' },
      );
    }
    const size = Number(before.size);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    const data = buffer.subarray(0, bytesRead);
    const after = await handle.stat({ bigint: true });
    rememberDigests(path, before, after, started, hashBuffer(data, CONTROL_FILE_DIGESTS));
    return data.toString('utf8');
  });
}

/** A .dsc is listed in a .changes by all three; hashing a few kB costs nothing. */
const CONTROL_FILE_DIGESTS = ['sha256', 'sha1', 'md5'];

/**
 * Package-List, split as python-debian's Dsc and Changes split it (and so as the Debusine
 * client sends it in `dsc_fields` and `changes_fields`): one object per line, its columns
 * named in order and the last one taking the rest of the line; a value on one line is one
 * object rather than a list.
 */
const PACKAGE_LIST_COLUMNS: Record<'dsc' | 'changes', readonly string[]> = {
  dsc: ['package', 'package-type', 'section', 'priority', '_other'],
  changes: ['package', 'package-type', 'section', 'priority', 'key-value-list'],
};

function splitColumns(line: string, columns: readonly string[]): PackageListEntry {
  const out: PackageListEntry = {};
  let rest = line.trim();
  for (const [index, column] of columns.entries()) {
    if (rest === '') break;
    if (index === columns.length - 1) {
      out[column] = rest;
      break;
    }
    const match = /^(\S+)\s*(.*)$/s.exec(rest);
    out[column] = match?.[1] ?? rest;
    rest = match?.[2] ?? '';
  }
  return out;
}

function packageList(
  kind: 'dsc' | 'changes',
  value: string,
): PackageListEntry | PackageListEntry[] {
  const columns = PACKAGE_LIST_COLUMNS[kind];
  if (!value.includes('\n')) return splitColumns(value, columns);
  return value
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => splitColumns(line, columns));
}

function toFields(
  kind: 'dsc' | 'changes',
  file: string,
  paragraph: Deb822Paragraph,
  lines: Map<string, number[]>,
): { fields: ControlFields; checksums: ListedChecksum[] } {
  const fields: ControlFields = {};
  const checksums: ListedChecksum[] = [];
  for (const [name, value] of Object.entries(paragraph)) {
    const list = parseFileList(kind, file, name, value, lines.get(name) ?? []);
    // One at a time: a spread of 200,000 entries overflows the call stack.
    if (list) for (const entry of list.checksums) checksums.push(entry);
    Object.defineProperty(fields, name, {
      value: list
        ? list.entries
        : name.toLowerCase() === 'package-list'
          ? packageList(kind, value)
          : value,
      enumerable: true,
      writable: true,
    });
  }
  return { fields, checksums };
}

function listed(fields: ControlFields, field: string): ListedFile[] {
  const key = Object.keys(fields).find((k) => k.toLowerCase() === field.toLowerCase());
  const value = key === undefined ? undefined : fields[key];
  if (!Array.isArray(value)) return [];
  return value.map((entry) => ({
    name: entry.name ?? '',
    size: Number(entry.size),
    md5sum: entry.md5sum,
    sha256: entry.sha256,
  }));
}

export function parseControlFileText(
  kind: 'dsc' | 'changes',
  text: string,
  file: string,
): ParsedControlFile {
  const doc = parseDeb822(text, { file });
  const paragraph = doc.paragraphs[0];
  if (!paragraph || doc.paragraphs.length !== 1) {
    throw new DebusineError(
      'validation',
      `'${file}' must hold exactly one paragraph, found ${String(doc.paragraphs.length)}`,
      { file, rule: 'single-paragraph' },
    );
  }
  if (kind === 'dsc') {
    for (const required of ['Source', 'Version']) {
      if (getField(paragraph, required) === undefined) {
        throw new DebusineError('validation', `'${file}' does not contain ${required} field`, {
          file,
          field: required,
          rule: 'dsc-required-field',
        });
      }
    }
  }
  const { fields, checksums } = toFields(
    kind,
    file,
    paragraph,
    doc.lines[0] ?? new Map<string, number[]>(),
  );
  checkLists(kind, file, paragraph, checksums);
  return {
    fields,
    signed: doc.signed,
    files: listed(fields, 'Files'),
    sha256: listed(fields, 'Checksums-Sha256'),
    checksums,
  };
}

export async function readDsc(path: string): Promise<ParsedControlFile> {
  return parseControlFileText('dsc', await readTextFile(path), basename(path));
}

export async function readChanges(path: string): Promise<ParsedControlFile> {
  return parseControlFileText('changes', await readTextFile(path), basename(path));
}

export function fieldString(fields: ControlFields, name: string): string | undefined {
  const key = Object.keys(fields).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : fields[key];
  return typeof value === 'string' ? value : undefined;
}
