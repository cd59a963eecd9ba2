/**
 * A streaming tar reader for artifact tarballs. It reports each member to a visitor, with
 * the name, type and size exactly as the archive gives them (pax `path`, `linkpath` and
 * `size` records and GNU long names applied, nothing normalised), before a byte of the
 * member's content is passed on; the visitor refuses by throwing. Anything another tar
 * tool could read differently is refused as malformed: a bad header checksum, a global
 * header that renames members, sparse files, data after the end-of-archive blocks.
 */
import { field, isZeroBlock, parseHeader, parsePax, type TarHeader } from './tar-header';

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

function applyPax(records: Map<string, string>, global: boolean): Map<string, string> {
  for (const key of records.keys()) {
    if (key.startsWith('GNU.sparse')) throw new TarFormatError('holds a sparse file');
    if (global && RENAMING.includes(key)) {
      throw new TarFormatError(`has a global header that sets "${key}" for every member`);
    }
  }
  const size = records.get('size');
  if (size !== undefined && !/^\d{1,15}$/.test(size)) {
    throw new TarFormatError(`has a pax size that is not a number (${JSON.stringify(size)})`);
  }
  return records;
}

function entryOf(header: TarHeader, pax: Map<string, string>, long: Map<string, string>) {
  const size = pax.get('size');
  return {
    name: pax.get('path') ?? long.get('L') ?? header.name,
    type: TYPES[header.typeflag] ?? 'other',
    typeflag: header.typeflag,
    size: size === undefined ? header.size : Number(size),
    linkname: pax.get('linkpath') ?? long.get('K') ?? header.linkname,
  } satisfies TarEntry;
}

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
  let pax = new Map<string, string>();
  let long = new Map<string, string>();

  const finishMeta = (m: NonNullable<typeof meta>) => {
    if (m.typeflag === 'x') pax = applyPax(parsePax(m.data), false);
    else if (m.typeflag === 'g') applyPax(parsePax(m.data), true);
    else long.set(m.typeflag, field(m.data, 0, m.data.length));
  };

  /** Reads the header in `block`; the state to go on in. */
  const startMember = async (): Promise<State> => {
    if (isZeroBlock(block)) return 'end';
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
    const entry = entryOf(header, pax, long);
    pax = new Map();
    long = new Map();
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
}
