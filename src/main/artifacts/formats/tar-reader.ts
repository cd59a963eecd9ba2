/**
 * A minimal in-memory tar reader for the small control.tar of a .deb: ustar and GNU
 * headers, GNU long names and pax `path` records. Artifact tarballs are streamed through
 * tar-stream.ts instead; this one is only ever given a buffer that was size-checked first.
 */
import { field, isZeroBlock, parseHeader, parsePax } from './tar-header';

// Names are decoded leniently here: they are only listed for display, and the one looked up,
// `control`, is not a name any byte replaced by U+FFFD can become. Artifact tarballs, whose
// names are compared with the artifact's and written to disk, are read strictly by
// tar-stream.ts.

export interface TarMember {
  name: string;
  type: 'file' | 'directory' | 'other';
  data: Buffer;
}

function paxPath(data: Buffer): string | undefined {
  try {
    return parsePax(data).get('path')?.toString('utf8');
  } catch (error) {
    throw new Error(`pax header ${(error as Error).message}`, { cause: error });
  }
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
      longName = field(data, 0, data.length).toString('utf8');
      continue;
    }
    if (header.typeflag === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (header.typeflag === 'g') continue;
    const name = longName ?? header.name.toString('utf8');
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
