/**
 * Reads an archive's public signing key, as the server hands it over (an ASCII-armoured
 * OpenPGP key block), far enough to say what apt will trust: the fingerprint of each
 * primary key it holds, computed here from the key material rather than taken from the
 * server's word. A block with no key in it (a repository published for the first time can
 * serve an empty armour for a while) holds no fingerprints, and the caller says so.
 */
import { createHash } from 'node:crypto';

/** Far more than a key block with a few subkeys and signatures. */
export const MAX_KEY_BLOCK_BYTES = 256 * 1024;

export interface PublicKeyBlock {
  /** The armoured text, normalised to LF line ends, as it goes into a `.sources` file. */
  armored: string;
  /** Upper-case hex fingerprints of the primary keys, in the order of the block. */
  fingerprints: string[];
}

export class KeyBlockError extends Error {}

const BEGIN = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const END = '-----END PGP PUBLIC KEY BLOCK-----';

/** Public-Key and Public-Subkey packets (RFC 9580, section 5.5.1). */
const TAG_PUBLIC_KEY = 6;

export function readPublicKeyBlock(text: string): PublicKeyBlock {
  if (text.length > MAX_KEY_BLOCK_BYTES) {
    throw new KeyBlockError(`The key block is over ${String(MAX_KEY_BLOCK_BYTES / 1024)} KiB`);
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === BEGIN);
  const end = lines.findIndex((l, i) => i > begin && l.trim() === END);
  if (begin < 0 || end < 0) throw new KeyBlockError('This is not an armoured OpenPGP public key');
  // Armour headers ("Comment: …") end at the first empty line; some writers have none.
  let bodyStart = begin + 1;
  const blank = lines.slice(bodyStart, end).findIndex((l) => l.trim() === '');
  const hasHeaders = lines
    .slice(bodyStart, blank < 0 ? bodyStart : bodyStart + blank)
    .every((l) => /^[A-Za-z][A-Za-z0-9-]*: /.test(l));
  if (blank >= 0 && hasHeaders) bodyStart += blank + 1;
  const body = lines
    .slice(bodyStart, end)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  let crc: string | undefined;
  if (body.at(-1)?.startsWith('=')) crc = body.pop()?.slice(1);
  const base64 = body.join('');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    throw new KeyBlockError('The key block holds characters that are not base64');
  }
  const bytes = Buffer.from(base64, 'base64');
  if (crc !== undefined && crc !== '' && crc24(bytes) !== crc) {
    throw new KeyBlockError('The key block is damaged: its checksum does not match');
  }
  const armored = `${lines.slice(begin, end + 1).join('\n')}\n`;
  return { armored, fingerprints: primaryFingerprints(bytes) };
}

function primaryFingerprints(bytes: Buffer): string[] {
  const fingerprints: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    const packet = readPacket(bytes, at);
    if (packet.tag === TAG_PUBLIC_KEY) fingerprints.push(fingerprintOf(packet.body));
    at = packet.next;
  }
  return fingerprints;
}

function readPacket(bytes: Buffer, at: number): { tag: number; body: Buffer; next: number } {
  const header = bytes[at];
  if (header === undefined || (header & 0x80) === 0) {
    throw new KeyBlockError(`The key block is damaged: no packet at byte ${String(at)}`);
  }
  let tag: number;
  let length: number;
  let start: number;
  if (header & 0x40) {
    // New format: one-, two- or five-octet lengths. Partial lengths are for data packets,
    // never in a key block.
    tag = header & 0x3f;
    const first = byteAt(bytes, at + 1);
    if (first < 192) {
      length = first;
      start = at + 2;
    } else if (first < 224) {
      length = ((first - 192) << 8) + byteAt(bytes, at + 2) + 192;
      start = at + 3;
    } else if (first === 255) {
      length = readUint(bytes, at + 2, 4);
      start = at + 6;
    } else {
      throw new KeyBlockError('The key block is damaged: a packet of partial length');
    }
  } else {
    tag = (header >> 2) & 0x0f;
    const type = header & 0x03;
    if (type === 3) throw new KeyBlockError('The key block is damaged: a packet of no length');
    const size = [1, 2, 4][type] ?? 1;
    length = readUint(bytes, at + 1, size);
    start = at + 1 + size;
  }
  const next = start + length;
  if (next > bytes.length) throw new KeyBlockError('The key block is damaged: it ends mid-packet');
  return { tag, body: bytes.subarray(start, next), next };
}

/** RFC 9580, section 5.5.4: v4 keys by SHA-1, v6 (and v5) keys by SHA-256. */
function fingerprintOf(body: Buffer): string {
  const version = body[0];
  if (version === 4) {
    const head = Buffer.from([0x99, (body.length >> 8) & 0xff, body.length & 0xff]);
    return createHash('sha1').update(head).update(body).digest('hex').toUpperCase();
  }
  if (version === 5 || version === 6) {
    const head = Buffer.alloc(5);
    head[0] = version === 6 ? 0x9b : 0x9a;
    head.writeUInt32BE(body.length, 1);
    return createHash('sha256').update(head).update(body).digest('hex').toUpperCase();
  }
  throw new KeyBlockError(`The key block holds a key of version ${String(version)}, unknown here`);
}

function byteAt(bytes: Buffer, at: number): number {
  const value = bytes[at];
  if (value === undefined) throw new KeyBlockError('The key block is damaged: it ends mid-packet');
  return value;
}

function readUint(bytes: Buffer, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + byteAt(bytes, at + i);
  return value;
}

/** The armour's checksum (RFC 9580, section 6.1), as base64. */
function crc24(bytes: Buffer): string {
  let crc = 0xb704ce;
  for (const byte of bytes) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  crc &= 0xffffff;
  return Buffer.from([(crc >> 16) & 0xff, (crc >> 8) & 0xff, crc & 0xff]).toString('base64');
}
