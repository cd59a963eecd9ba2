/**
 * A streaming tar reader for artifact tarballs. It reports each member to a visitor, with
 * the name, type and size exactly as the archive gives them (pax `path`, `linkpath` and
 * `size` records and GNU long names applied, nothing normalised), before a byte of the
 * member's content is passed on; the visitor refuses by throwing.
 *
 * The app keeps a checked tarball for the user to unpack with any tool, so an archive must
 * mean one thing to every reader: anything another tar tool could read differently is
 * refused as malformed. A bad header checksum; a global header that renames members; sparse
 * files; data after the end-of-archive blocks; a member named two ways (a GNU long name and
 * a pax path, or a header name that is not the long name's usual stand-in), given two
 * pax headers or two GNU long names (Python's tarfile takes the first, GNU tar the last),
 * or two sizes; a name that is not UTF-8 (read as text it would become another name, and
 * two such names one); bytes where ustar keeps a name prefix in a header that is not ustar
 * (Python's tarfile reads them as part of the name, GNU tar does not); an extended header
 * that belongs to no member.
 */
import { quotePath } from './artifact-paths';
import { field, isZeroBlock, parseHeader, parsePax, utf8, type TarHeader } from './tar-header';

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

export interface TarEntry {
  name: string;
  type: TarEntryType;
  typeflag: string;
  size: number;
  linkname: string;
}

/** Where a member's content goes; `write` may return a promise to slow the reader down. */
export interface TarSink {
  write(chunk: Buffer): Promise<void> | undefined;
  end(): Promise<void> | undefined;
}

export interface TarVisitor {
  entry(entry: TarEntry): Promise<TarSink | undefined> | TarSink | undefined;
}

type State = 'header' | 'body' | 'meta' | 'skip' | 'end';

export class TarFormatError extends Error {
  override readonly name = 'TarFormatError';
}

/** Pax and GNU long-name data larger than this is not a name: refused. */
const MAX_META = 64 * 1024;

const TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '5': 'directory',
  '1': 'hardlink',
  '2': 'symlink',
};

/** Keys that change what a member is; in a global header they would apply to all. */
const RENAMING = ['path', 'linkpath', 'size'];

/** The charset pax names are in unless a header says otherwise, in pax's words. */
const PAX_UTF8 = 'ISO-IR 10646 2000 UTF-8';

/** The largest size a header's 11 octal digits hold. */
const HEADER_SIZE_MAX = 8 ** 11 - 1;

/** What the extended headers read since the last member say about the next one. */
interface Pending {
  pax?: Map<string, Buffer>;
  /** The GNU long name (`L`) and long link name (`K`), up to their first NUL. */
  longName?: Buffer;
  longLink?: Buffer;
}

/** Bytes for a message: as text when they are UTF-8, else with each odd byte as \xNN. */
function shown(bytes: Buffer): string {
  const text = utf8(bytes);
  if (text !== undefined) return quotePath(text);
  let escaped = '';
  for (const byte of bytes) {
    const plain = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    escaped += plain ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return escaped.length > 150
    ? `"${escaped.slice(0, 150)}…" (${String(bytes.length)} bytes)`
    : `"${escaped}"`;
}

function paxRecords(data: Buffer, global: boolean): Map<string, Buffer> {
  let records: Map<string, Buffer>;
  try {
    records = parsePax(data);
  } catch (error) {
    throw new TarFormatError(`has a pax header that ${(error as Error).message}`, {
      cause: error,
    });
  }
  for (const key of records.keys()) {
    if (key.startsWith('GNU.sparse')) throw new TarFormatError('holds a sparse file');
    if (global && RENAMING.includes(key)) {
      throw new TarFormatError(`has a global header that sets "${key}" for every member`);
    }
  }
  // Python's tarfile reads names in the charset a header declares; GNU tar ignores the
  // declaration and reads them as UTF-8.
  const charset = records.get('hdrcharset');
  if (charset !== undefined && charset.toString('latin1') !== PAX_UTF8) {
    throw new TarFormatError(`has a pax header in a charset other than UTF-8 (${shown(charset)})`);
  }
  const size = records.get('size');
  if (size !== undefined && !/^\d{1,15}$/.test(size.toString('latin1'))) {
    throw new TarFormatError(`has a pax size that is not a number (${shown(size)})`);
  }
  return records;
}

const NAME = {
  thing: 'a member',
  text: 'member name',
  gnu: 'a GNU long name',
  pax: 'a pax path',
};
const LINK = {
  thing: 'a link target',
  text: 'link target',
  gnu: 'a GNU long link name',
  pax: 'a pax linkpath',
};

/** A field's bytes as a reader sees them: up to the first NUL. */
function asField(bytes: Buffer): Buffer {
  const nul = bytes.indexOf(0);
  return nul === -1 ? bytes : bytes.subarray(0, nul);
}

/**
 * Whether a header's name field holds what a writer puts there beside a long name, for
 * readers that know neither pax nor GNU long names: the name itself, or its first 100 bytes
 * (GNU tar, even when that cuts a character in two), or the name with "?" for each non-ASCII
 * character, cut to 100 bytes (Python's tarfile, the server's). Anything else names the
 * member a second way, and such a reader would take that one.
 */
function standsFor(inHeader: Buffer, long: Buffer, text: string): boolean {
  const python = Buffer.from(text.replace(/[^\0-\x7f]/gu, '?')).subarray(0, 100);
  return [long, long.subarray(0, 100), python].some((s) => inHeader.equals(asField(s)));
}

/** The one name (or link target) a member's headers give it, as text. */
function nameOf(
  inHeader: Buffer,
  pax: Buffer | undefined,
  gnu: Buffer | undefined,
  words: typeof NAME,
): string {
  if (pax !== undefined && gnu !== undefined) {
    throw new TarFormatError(
      `names ${words.thing} two ways: ${words.gnu} ${shown(gnu)} and ${words.pax} ${shown(pax)}`,
    );
  }
  const long = pax ?? gnu;
  const from = pax !== undefined ? words.pax : gnu !== undefined ? words.gnu : 'its header';
  const bytes = long ?? inHeader;
  const text = utf8(bytes);
  if (text === undefined) {
    throw new TarFormatError(
      `has a ${words.text} that is not valid UTF-8 (${shown(bytes)}, in ${from})`,
    );
  }
  if (long !== undefined && !standsFor(inHeader, long, text)) {
    throw new TarFormatError(
      `names ${words.thing} two ways: its header ${shown(inHeader)} and ${from} ${shown(long)}`,
    );
  }
  return text;
}

function entryOf(header: TarHeader, pending: Pending): TarEntry {
  if (header.strayPrefix.length > 0) {
    throw new TarFormatError(
      `has a header that is not ustar, but has bytes where ustar keeps a name prefix (${shown(header.strayPrefix)})`,
    );
  }
  const name = nameOf(header.name, pending.pax?.get('path'), pending.longName, NAME);
  const linkname = nameOf(header.linkname, pending.pax?.get('linkpath'), pending.longLink, LINK);
  let size = header.size;
  const paxSize = pending.pax?.get('size');
  if (paxSize !== undefined) {
    size = Number(paxSize.toString('latin1'));
    // Writers give a size in a pax record alone, with 0 in the header, when the header's
    // field cannot hold it; a reader that knows no pax then takes 0.
    const standIn = header.size === 0 && size > HEADER_SIZE_MAX;
    if (size !== header.size && !standIn) {
      throw new TarFormatError(
        `gives ${quotePath(name)} two sizes: ${String(header.size)} in its header and ${String(size)} in a pax record`,
      );
    }
  }
  return {
    name,
    type: TYPES[header.typeflag] ?? 'other',
    typeflag: header.typeflag,
    size,
    linkname,
  };
}

const NO_MEMBER = 'ends with an extended header that belongs to no member';

/** Reads a tar stream to its end; throws TarFormatError on anything malformed. */
export async function readTarStream(
  chunks: AsyncIterable<Buffer>,
  visitor: TarVisitor,
): Promise<void> {
  const block = Buffer.alloc(512);
  let filled = 0;
  let state: State = 'header';
  let remaining = 0;
  let padding = 0;
  let sink: TarSink | undefined;
  let current = '';
  let meta: { typeflag: string; data: Buffer; filled: number } | undefined;
  let pending: Pending = {};
  const waiting = () => Object.keys(pending).length > 0;

  const finishMeta = (m: NonNullable<typeof meta>) => {
    if (m.typeflag === 'x') {
      if (pending.pax) throw new TarFormatError('has two pax headers for one member');
      pending.pax = paxRecords(m.data, false);
    } else if (m.typeflag === 'g') {
      paxRecords(m.data, true);
    } else {
      const link = m.typeflag === 'K';
      if ((link ? pending.longLink : pending.longName) !== undefined) {
        throw new TarFormatError(
          `has two GNU long ${link ? 'link names' : 'names'} for one member`,
        );
      }
      const value = field(m.data, 0, m.data.length);
      if (link) pending.longLink = value;
      else pending.longName = value;
    }
  };

  /** Reads the header in `block`; the state to go on in. */
  const startMember = async (): Promise<State> => {
    if (isZeroBlock(block)) {
      if (waiting()) throw new TarFormatError(NO_MEMBER);
      return 'end';
    }
    let header: TarHeader;
    try {
      header = parseHeader(block);
    } catch (error) {
      throw new TarFormatError(`has a malformed header (${(error as Error).message})`);
    }
    if (!header.checksumValid) throw new TarFormatError('has a header with a bad checksum');
    padding = (512 - (header.size % 512)) % 512;
    if (['x', 'g', 'L', 'K'].includes(header.typeflag)) {
      if (header.size > MAX_META) throw new TarFormatError('has an oversized extended header');
      meta = { typeflag: header.typeflag, data: Buffer.alloc(header.size), filled: 0 };
      current = 'an extended header';
      if (header.size > 0) return 'meta';
      finishMeta(meta);
      meta = undefined;
      return 'header';
    }
    const entry = entryOf(header, pending);
    pending = {};
    current = JSON.stringify(entry.name);
    padding = (512 - (entry.size % 512)) % 512;
    sink = await visitor.entry(entry);
    if (entry.size > 0 && !sink) throw new TarFormatError(`gives content to ${current}`);
    remaining = entry.size;
    if (remaining > 0) return 'body';
    await sink?.end();
    return padding ? 'skip' : 'header';
  };

  for await (const chunk of chunks) {
    let offset = 0;
    while (offset < chunk.length) {
      const available = chunk.length - offset;
      if (state === 'header') {
        const n = Math.min(512 - filled, available);
        chunk.copy(block, filled, offset, offset + n);
        filled += n;
        offset += n;
        if (filled === 512) {
          filled = 0;
          state = await startMember();
        }
      } else if (state === 'body' && sink) {
        const n = Math.min(remaining, available);
        remaining -= n;
        const wait = sink.write(chunk.subarray(offset, offset + n));
        offset += n;
        if (wait) await wait;
        if (remaining === 0) {
          await sink.end();
          sink = undefined;
          state = padding ? 'skip' : 'header';
        }
      } else if (state === 'meta' && meta) {
        const n = Math.min(meta.data.length - meta.filled, available);
        chunk.copy(meta.data, meta.filled, offset, offset + n);
        meta.filled += n;
        offset += n;
        if (meta.filled === meta.data.length) {
          finishMeta(meta);
          meta = undefined;
          state = padding ? 'skip' : 'header';
        }
      } else if (state === 'skip') {
        const n = Math.min(padding, available);
        padding -= n;
        offset += n;
        if (padding === 0) state = 'header';
      } else {
        // After the end-of-archive block only zeros (the writer's padding) may follow.
        if (!isZeroBlock(chunk.subarray(offset))) {
          throw new TarFormatError('holds data after its end');
        }
        offset = chunk.length;
      }
    }
  }
  if (state === 'body' || state === 'meta' || state === 'skip') {
    throw new TarFormatError(`ends in the middle of ${current}`);
  }
  if (filled !== 0) throw new TarFormatError('ends in the middle of a header');
  if (waiting()) throw new TarFormatError(NO_MEMBER);
}
