/**
 * A minimal in-memory tar reader for the small control.tar of a .deb: ustar and GNU
 * headers, GNU long names and pax `path` records. Artifact tarballs are streamed through
 * tar-stream.ts instead; this one is only ever given a buffer that was size-checked first.
 */
import { field, isZeroBlock, parseHeader, parsePax } from './tar-header';

export interface TarMember {
  name: string;
  type: 'file' | 'directory' | 'other';
  data: Buffer;
}

/** Lists the members of a tar archive held in memory; throws on a malformed archive. */
export function readTar(archive: Buffer): TarMember[] {
  const members: TarMember[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= archive.length) {
    const block = archive.subarray(offset, offset + 512);
    if (isZeroBlock(block)) break;
    const header = parseHeader(block);
    const dataStart = offset + 512;
    if (dataStart + header.size > archive.length) throw new Error('truncated tar member');
    const data = archive.subarray(dataStart, dataStart + header.size);
    offset = dataStart + Math.ceil(header.size / 512) * 512;
    if (header.typeflag === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (header.typeflag === 'x') {
      longName = parsePax(data).get('path') ?? longName;
      continue;
    }
    if (header.typeflag === 'g') continue;
    const name = longName ?? header.name;
    longName = undefined;
    const type = ['0', '\0', '7'].includes(header.typeflag)
      ? 'file'
      : header.typeflag === '5'
        ? 'directory'
        : 'other';
    members.push({ name, type, data });
  }
  return members;
}
