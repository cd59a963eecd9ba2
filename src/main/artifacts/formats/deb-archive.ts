/**
 * The structure of a `.deb`/`.udeb` (deb(5)): an ar archive whose members are
 * `debian-binary` (format 2.x), `control.tar[.gz|.xz|.zst]` and
 * `data.tar[.gz|.xz|.zst|.bz2|.lzma]`, in that order, with optional members named `_…`
 * between them and anything after data.tar. The walk reads the magic, each 60-byte member
 * header and debian-binary's few bytes, and seeks over every other member: it costs the same
 * for a package of any size, and a package cut short anywhere (a download or copy that
 * stopped) is reported as truncated, naming the member and the bytes missing.
 */
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import { withFile } from '../hashing/checksums';

export interface DebMember {
  name: string;
  /** Offset of the member's contents (after its header). */
  offset: number;
  size: number;
}

export interface DebLayout {
  members: DebMember[];
  control: DebMember;
  data: DebMember;
}

const MAGIC = '!<arch>\n';
const HEADER = 60;
/** A package has three members and perhaps a few signatures: more is not a package. */
const MAX_MEMBERS = 64;
const CONTROL = /^control\.tar(\.gz|\.xz|\.zst)?$/;
const DATA = /^data\.tar(\.gz|\.xz|\.zst|\.bz2|\.lzma)?$/;

export function debError(file: string, message: string, rule = 'deb-format'): DebusineError {
  return new DebusineError('validation', `${basename(file)}: ${message}`, { file, rule });
}

function truncated(file: string, message: string): DebusineError {
  return new DebusineError('validation', `${basename(file)} is truncated: ${message}`, {
    file,
    rule: 'deb-truncated',
  });
}

async function readAt(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function bytes(n: number): string {
  return `${String(n)} byte${n === 1 ? '' : 's'}`;
}

/** Walks the ar headers of an open package; throws naming what is wrong or missing. */
export async function readDebLayout(file: string, handle: FileHandle): Promise<DebLayout> {
  const { size: total } = await handle.stat();
  const magic = (await readAt(handle, MAGIC.length, 0)).toString('latin1');
  if (magic !== MAGIC) {
    if (magic.length < MAGIC.length && MAGIC.startsWith(magic)) {
      throw truncated(file, `it ends after ${bytes(total)}, inside the ar magic "!<arch>"`);
    }
    throw debError(file, 'not a Debian binary package: it does not start with "!<arch>"');
  }
  const members: DebMember[] = [];
  let position = MAGIC.length;
  while (position < total) {
    const n = members.length + 1;
    if (n > MAX_MEMBERS) throw debError(file, `more than ${String(MAX_MEMBERS)} ar members`);
    const header = await readAt(handle, HEADER, position);
    const name = header.subarray(0, 16).toString('latin1').trimEnd().replace(/\/$/, '');
    if (header.length < HEADER) {
      throw truncated(
        file,
        `the header of member ${String(n)} (${name || 'unnamed'}) at byte ${String(position)} ` +
          `has ${String(header.length)} of its ${String(HEADER)} bytes`,
      );
    }
    if (header.subarray(58, 60).toString('latin1') !== '`\n') {
      throw debError(
        file,
        `the header of member ${String(n)} at byte ${String(position)} does not end with "\`\\n" (damaged, or not an ar archive)`,
      );
    }
    // Decimal, padded with spaces (dpkg skips leading ones too).
    const sizeField = header.subarray(48, 58).toString('latin1');
    if (!/^ *\d+ *$/.test(sizeField)) {
      throw debError(
        file,
        `member ${String(n)} (${name}) at byte ${String(position)} has an invalid size field ${JSON.stringify(sizeField)}`,
      );
    }
    const size = Number(sizeField.trim());
    const offset = position + HEADER;
    const needed = size + (size % 2);
    if (offset + needed > total) {
      throw truncated(
        file,
        `member ${name} at byte ${String(offset)} needs ${bytes(size)}` +
          (size % 2 ? ' (+1 padding)' : '') +
          `, the file has ${String(total - offset)} of them`,
      );
    }
    members.push({ name, offset, size });
    position = offset + needed;
  }
  return { members, ...(await checkOrder(file, handle, members, total)) };
}

/** debian-binary, then control.tar…, then data.tar…, with `_…` members allowed between. */
async function checkOrder(
  file: string,
  handle: FileHandle,
  members: DebMember[],
  total: number,
): Promise<{ control: DebMember; data: DebMember }> {
  const [first] = members;
  if (!first) throw truncated(file, `it ends after the ar magic (${bytes(total)}), with no member`);
  if (first.name !== 'debian-binary') {
    throw debError(
      file,
      `the first member is ${JSON.stringify(first.name)}, expected debian-binary`,
    );
  }
  // Only the first line counts: deb(5) lets later versions add lines.
  const version = (await readAt(handle, Math.min(first.size, 64), first.offset))
    .toString('latin1')
    .split('\n')[0];
  if (!/^2\.\d+$/.test(version ?? '')) {
    throw debError(
      file,
      `debian-binary says ${JSON.stringify(version)}: not the package format 2.x (expected "2.0\\n")`,
    );
  }
  let i = 1;
  const next = (after: string, pattern: RegExp, what: string): DebMember => {
    while (members[i]?.name.startsWith('_')) i++;
    const member = members[i++];
    if (!member) {
      throw truncated(file, `it ends after ${after} (${bytes(total)}), with no ${what} member`);
    }
    if (!pattern.test(member.name)) {
      throw debError(
        file,
        `expected a ${what} member after ${after}, found ${JSON.stringify(member.name)}`,
      );
    }
    return member;
  };
  const control = next('debian-binary', CONTROL, 'control.tar');
  const data = next(control.name, DATA, 'data.tar');
  return { control, data };
}

/** Checks a package's structure without reading its data member. */
export async function checkDebStructure(file: string): Promise<DebLayout> {
  return withFile(file, (handle) => readDebLayout(file, handle));
}
