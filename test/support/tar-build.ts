/**
 * Tarballs written by hand, so that a test can build what no honest tool writes: names with
 * "..", NUL bytes or backslashes, links of every kind, duplicate members, members larger
 * than the artifact declares. Names that do not fit a ustar header (long, non-ASCII, NUL)
 * travel in a pax extended header, as Python's tarfile (the server's) writes them. Headers
 * no writer makes at all (two names for one member, bytes that are not UTF-8, a prefix
 * outside ustar) are written field by field with `rawMember`.
 */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  /**
   * ustar typeflag: 0 file, 1 hard link, 2 symbolic link, 3 char device, 5 directory,
   * 6 FIFO; or a raw extended header (x pax, g global pax, L GNU long name, K GNU long
   * link name), `body` as is.
   */
  type?: '0' | '1' | '2' | '3' | '5' | '6' | 'x' | 'g' | 'L' | 'K';
  body?: Buffer | string;
  link?: string;
}

function needsPax(value: string, room: number): boolean {
  return Buffer.byteLength(value) > room || /[^\x20-\x7e]/.test(value);
}

/**
 * What Python's tarfile writes in a ustar field beside the pax record that holds the real
 * value: every non-ASCII character as "?", cut to the field's 100 bytes.
 */
export function pythonStandIn(value: string): string {
  return value.replace(/[^\0-\x7f]/gu, '?').slice(0, 100);
}

/** A header's fields, any bytes in any of them, for headers no honest writer makes. */
export interface RawHeader {
  /** The name field; bytes past its 100 are dropped. */
  name: Buffer | string;
  /** The typeflag; "0" by default. */
  type?: string;
  /** The size field; by default the length of the body given with the header. */
  size?: number;
  /** The link name field (100 bytes). */
  link?: Buffer | string;
  /** The 155 bytes at offset 345, where a ustar header keeps its name prefix. */
  prefix?: Buffer | string;
  /** ustar's "ustar\0" "00" (the default), old GNU's "ustar  \0", or none at all (v7). */
  magic?: 'ustar' | 'gnu' | 'v7';
}

const MAGIC = { ustar: 'ustar\x0000', gnu: 'ustar  \0', v7: '' };

export function rawHeader(fields: RawHeader, bodyLength = 0): Buffer {
  const block = Buffer.alloc(512);
  Buffer.from(fields.name).copy(block, 0, 0, 100);
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${(fields.size ?? bodyLength).toString(8).padStart(11, '0')}\0`, 124);
  block.write('00000000000\0', 136);
  block.write('        ', 148);
  block.write(fields.type ?? '0', 156, 'latin1');
  Buffer.from(fields.link ?? '').copy(block, 157, 0, 100);
  block.write(MAGIC[fields.magic ?? 'ustar'], 257, 'latin1');
  Buffer.from(fields.prefix ?? '').copy(block, 345, 0, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

function header(name: string, type: string, size: number, link: string): Buffer {
  return rawHeader({ name, type, size, link });
}

function padded(body: Buffer): Buffer[] {
  return [body, Buffer.alloc((512 - (body.length % 512)) % 512)];
}

/** One pax record: "<length> <key>=<value>\n", where length counts itself. */
export function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(rest) + 1;
  while (String(length).length + Buffer.byteLength(rest) !== length) length++;
  return `${String(length)}${rest}`;
}

/** A pax extended header's data: its records, values as text or as any bytes. */
export function paxData(...records: [string, string | Buffer][]): Buffer {
  return Buffer.concat(
    records.map(([key, value]) => {
      const rest = Buffer.concat([Buffer.from(` ${key}=`), Buffer.from(value), Buffer.from('\n')]);
      let length = rest.length + 1;
      while (String(length).length + rest.length !== length) length++;
      return Buffer.concat([Buffer.from(String(length)), rest]);
    }),
  );
}

/** One member as written: its header, then its body padded to whole blocks. */
export function rawMember(fields: RawHeader, body: Buffer | string = ''): Buffer {
  const data = Buffer.from(body);
  return Buffer.concat([rawHeader(fields, data.length), ...padded(data)]);
}

/** Members written with `rawMember`, and the end-of-archive blocks. */
export function rawTar(members: Buffer[]): Buffer {
  return Buffer.concat([...members, Buffer.alloc(1024)]);
}

/** The uncompressed tar stream. */
export function tarBytes(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const link = entry.link ?? '';
    let records = '';
    if (needsPax(entry.name, 99)) records += paxRecord('path', entry.name);
    if (needsPax(link, 99)) records += paxRecord('linkpath', link);
    if (records !== '') {
      const pax = Buffer.from(records);
      blocks.push(header('PaxHeader', 'x', pax.length, ''), ...padded(pax));
    }
    const shortName = needsPax(entry.name, 99) ? pythonStandIn(entry.name) : entry.name;
    const shortLink = needsPax(link, 99) ? pythonStandIn(link) : link;
    blocks.push(header(shortName, entry.type ?? '0', body.length, shortLink), ...padded(body));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** The gzip'd tar stream, as `download_tar_gz_url` serves it. */
export function tarGz(entries: TarEntry[]): Buffer {
  return gzipSync(tarBytes(entries));
}
