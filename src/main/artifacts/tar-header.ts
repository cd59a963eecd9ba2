/**
 * Reading tar's 512-byte headers and pax records, shared by the in-memory reader (a .deb's
 * control.tar) and the streaming one (artifact tarballs). Only ustar, GNU and pax forms are
 * understood; numbers may be octal or GNU base-256.
 */
export interface TarHeader {
  /** The name as the header has it: ustar `prefix/name`, or `name`. */
  name: string;
  typeflag: string;
  size: number;
  linkname: string;
  /** Whether the stored checksum matches the header's bytes. */
  checksumValid: boolean;
}

export function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? raw.length : nul).toString('utf8');
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
  const text = field(block, start, length).trim();
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
  const prefix = posix ? field(block, 345, 155) : '';
  const name = field(block, 0, 100);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    typeflag: String.fromCharCode(block[156] ?? 0),
    size: tarNumber(block, 124, 12),
    linkname: field(block, 157, 100),
    checksumValid: stored === unsigned || stored === signed,
  };
}

/**
 * A pax extended header's records ("<length> <key>=<value>\n"). Throws on a malformed
 * record; values are kept whole, NUL bytes included, for the caller to judge.
 */
export function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < data.length) {
    // Some writers pad the data with NULs.
    if (data[offset] === 0) break;
    const space = data.indexOf(0x20, offset);
    const lengthText = space === -1 ? '' : data.subarray(offset, space).toString('latin1');
    const length = /^[1-9][0-9]*$/.test(lengthText) ? Number(lengthText) : NaN;
    const end = offset + length;
    if (!Number.isSafeInteger(length) || end > data.length || data[end - 1] !== 0x0a) {
      throw new Error('malformed pax record');
    }
    const record = data.subarray(space + 1, end - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq <= 0) throw new Error('malformed pax record');
    records.set(record.slice(0, eq), record.slice(eq + 1));
    offset = end;
  }
  return records;
}
