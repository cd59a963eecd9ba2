/**
 * Readers for `.dsc` and `.changes` files, producing the dictionaries python-debian's
 * `deb822.Dsc`/`deb822.Changes` produce: field names keep their case, and the file lists
 * (Files, Checksums-*) become lists of objects with lower-case keys and string sizes.
 * The server stores these verbatim as `dsc_fields`/`changes_fields`.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { DebusineError } from '../../shared/errors';
import { fileError } from './checksums';
import { getField, parseDeb822, type Deb822Paragraph } from './deb822';

/** A .dsc or .changes larger than this is certainly not one. */
const MAX_CONTROL_FILE = 16 * 1024 * 1024;

export type FileListEntry = Record<string, string>;
export type ControlFields = Record<string, string | FileListEntry[]>;

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
}

const COLUMNS: Record<'dsc' | 'changes', Record<string, readonly string[]>> = {
  dsc: {
    files: ['md5sum', 'size', 'name'],
    'checksums-sha1': ['sha1', 'size', 'name'],
    'checksums-sha256': ['sha256', 'size', 'name'],
    'checksums-sha512': ['sha512', 'size', 'name'],
  },
  changes: {
    files: ['md5sum', 'size', 'section', 'priority', 'name'],
    'checksums-sha1': ['sha1', 'size', 'name'],
    'checksums-sha256': ['sha256', 'size', 'name'],
    'checksums-sha512': ['sha512', 'size', 'name'],
  },
};

export async function readTextFile(path: string, limit = MAX_CONTROL_FILE): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    const { size } = await handle.stat();
    if (size > limit) {
      throw new DebusineError(
        'validation',
        `${path} is ${String(size)} bytes: too large for a control file (limit ${String(limit)})`,
        { file: path, rule: 'control-file-size' },
      );
    }
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (error) {
    throw fileError(path, error);
  } finally {
    await handle.close();
  }
}

function listError(file: string, field: string, message: string): DebusineError {
  return new DebusineError('validation', `'${file}' ${message}`, {
    file,
    field,
    rule: 'file-list',
  });
}

function parseList(
  file: string,
  field: string,
  value: string,
  columns: readonly string[],
): FileListEntry[] {
  const entries: FileListEntry[] = [];
  for (const line of value.split('\n')) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    if (words.length !== columns.length) {
      throw listError(
        file,
        field,
        `has a malformed line in ${field}: expected ${String(columns.length)} columns ` +
          `(${columns.join(' ')}), found ${JSON.stringify(line.trim())}`,
      );
    }
    const entry: FileListEntry = {};
    columns.forEach((column, i) => {
      entry[column] = words[i] ?? '';
    });
    if (!/^\d+$/.test(entry.size ?? '')) {
      throw listError(file, field, `has a non-numeric size in ${field}: ${String(entry.size)}`);
    }
    const name = entry.name ?? '';
    // CVE-2026-11853: a listed name must be one path component.
    if (name.includes('/') || name === '.' || name === '..' || name === '') {
      throw listError(
        file,
        field,
        `has an entry in ${field} with more than one path component: '${name}'`,
      );
    }
    entries.push(entry);
  }
  return entries;
}

function toFields(
  kind: 'dsc' | 'changes',
  file: string,
  paragraph: Deb822Paragraph,
): ControlFields {
  const fields: ControlFields = {};
  for (const [name, value] of Object.entries(paragraph)) {
    const columns = COLUMNS[kind][name.toLowerCase()];
    const parsed = columns ? parseList(file, name, value, columns) : value;
    Object.defineProperty(fields, name, { value: parsed, enumerable: true, writable: true });
  }
  return fields;
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
  const fields = toFields(kind, file, paragraph);
  return {
    fields,
    signed: doc.signed,
    files: listed(fields, 'Files'),
    sha256: listed(fields, 'Checksums-Sha256'),
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
