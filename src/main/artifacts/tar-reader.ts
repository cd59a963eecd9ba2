/**
 * A minimal in-memory tar reader for the small control.tar of a .deb: ustar and GNU
 * headers, GNU long names and pax `path` records. Big archives go through `tar` (streams);
 * this one is only ever given a buffer that was size-checked first.
 */
export interface TarMember {
  name: string;
  type: 'file' | 'directory' | 'other';
  data: Buffer;
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? raw.length : nul).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new Error(`bad octal number ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function paxPath(data: Buffer): string | undefined {
  let offset = 0;
  let path: string | undefined;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(data.subarray(offset, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    offset += length;
  }
  return path;
}

/** Lists the members of a tar archive held in memory; throws on a malformed archive. */
export function readTar(archive: Buffer): TarMember[] {
  const members: TarMember[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = octal(header, 124, 12);
    const typeflag = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + 512;
    if (dataStart + size > archive.length) throw new Error('truncated tar member');
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (typeflag === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (typeflag === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (typeflag === 'g') continue;
    const magic = field(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? field(header, 345, 155) : '';
    const name =
      longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    const type =
      typeflag === '0' || typeflag === '\0' || typeflag === '7'
        ? 'file'
        : typeflag === '5'
          ? 'directory'
          : 'other';
    members.push({ name, type, data });
  }
  return members;
}
