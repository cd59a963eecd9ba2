/**
 * Reading tar's 512-byte headers and pax records, shared by the in-memory reader (a .deb's
 * control.tar) and the streaming one (artifact tarballs). Only ustar, GNU and pax forms are
 * understood; numbers may be octal or GNU base-256. Names are kept as bytes until the
 * reader knows which of a member's names is its name: only that one must be text.
 */
export interface TarHeader {
  /** The name's bytes as the header has them: ustar `prefix/name`, or `name`. */
  name: Buffer;
  typeflag: string;
  size: number;
  linkname: Buffer;
  /** Whether the stored checksum matches the header's bytes. */
  checksumValid: boolean;
  /**
   * The bytes where ustar keeps a name prefix, in a header that is not ustar. Python's
   * tarfile puts them before the name whatever the header's magic; GNU tar ignores them.
   */
  strayPrefix: Buffer;
}

/** A NUL-terminated field's bytes, without the NUL and what follows it. */
export function field(block: Buffer, start: number, length: number): Buffer {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return nul === -1 ? raw : raw.subarray(0, nul);
}

// Fatal, so that two different byte strings never become the same text (a lenient decoder
// turns every bad byte into U+FFFD); and keeping a leading byte order mark, which is part
// of the name as the filesystem and other tar tools see it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes as UTF-8 text, or undefined when they are not valid UTF-8. */
export function utf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** An octal field, or a GNU base-256 one (its first byte's high bit set). */
export function tarNumber(block: Buffer, start: number, length: number): number {
  const first = block[start] ?? 0;
  if (first & 0x80) {
    if (first !== 0x80) throw new Error('negative or oversized base-256 number');
    let value = 0;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + (block[i] ?? 0);
    if (!Number.isSafeInteger(value)) throw new Error('number too large');
    return value;
  }
  // Spaces only: trimming all whitespace would take a byte 0xa0 (read as latin1) for one.
  const text = field(block, start, length)
    .toString('latin1')
    .replace(/^ +| +$/g, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new Error(`bad octal number ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

export function isZeroBlock(block: Buffer): boolean {
  for (const byte of block) if (byte !== 0) return false;
  return true;
}

export function parseHeader(block: Buffer): TarHeader {
  // Tar writers sum the bytes as unsigned; a few old ones as signed. Both are accepted.
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < 512; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    unsigned += byte;
    signed += byte >= 0x80 ? byte - 0x100 : byte;
  }
  const stored = tarNumber(block, 148, 8);
  // ustar ("ustar\0") has a prefix field; old GNU ("ustar  ") uses those bytes otherwise.
  const posix = block.subarray(257, 263).toString('latin1') === 'ustar\0';
  const prefix = field(block, 345, 155);
  const name = field(block, 0, 100);
  return {
    name: posix && prefix.length > 0 ? Buffer.concat([prefix, Buffer.from('/'), name]) : name,
    typeflag: String.fromCharCode(block[156] ?? 0),
    size: tarNumber(block, 124, 12),
    linkname: field(block, 157, 100),
    checksumValid: stored === unsigned || stored === signed,
    strayPrefix: posix ? Buffer.alloc(0) : prefix,
  };
}

/**
 * A pax extended header's records ("<length> <key>=<value>\n"): keys as text, values as
 * bytes, whole (NUL bytes included), for the caller to judge. Throws, with the rest of a
 * sentence "has a pax header that …", on anything two readers could take differently: a
 * malformed record, a key given twice (most readers keep the last one; nothing says they
 * must), a key that is not UTF-8, or records after the NUL padding (some readers stop at
 * the first NUL, others report the rest as an error).
 */
export function parsePax(data: Buffer): Map<string, Buffer> {
  const records = new Map<string, Buffer>();
  let offset = 0;
  while (offset < data.length) {
    // Some writers pad the data with NULs.
    if (data[offset] === 0) {
      if (data.subarray(offset).some((byte) => byte !== 0)) {
        throw new Error('holds data after its padding');
      }
      break;
    }
    const space = data.indexOf(0x20, offset);
    const lengthText = space === -1 ? '' : data.subarray(offset, space).toString('latin1');
    const length = /^[1-9][0-9]*$/.test(lengthText) ? Number(lengthText) : NaN;
    const end = offset + length;
    if (!Number.isSafeInteger(length) || end > data.length || data[end - 1] !== 0x0a) {
      throw new Error('is malformed');
    }
    const record = data.subarray(space + 1, end - 1);
    const eq = record.indexOf(0x3d);
    if (eq <= 0) throw new Error('is malformed');
    const key = utf8(record.subarray(0, eq));
    if (key === undefined) throw new Error('holds a key that is not valid UTF-8');
    if (records.has(key)) throw new Error(`gives ${JSON.stringify(key)} twice`);
    records.set(key, record.subarray(eq + 1));
    offset = end;
  }
  return records;
}
