/**
 * Tarballs written by hand, so that a test can build what no honest tool writes: names with
 * "..", NUL bytes or backslashes, links of every kind, duplicate members, members larger
 * than the artifact declares. Names that do not fit a ustar header (long, non-ASCII, NUL)
 * travel in a pax extended header, as Python's tarfile (the server's) writes them.
 */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  /**
   * ustar typeflag: 0 file, 1 hard link, 2 symbolic link, 3 char device, 5 directory,
   * 6 FIFO; or a raw extended header (x pax, g global pax, L GNU long name), `body` as is.
   */
  type?: '0' | '1' | '2' | '3' | '5' | '6' | 'x' | 'g' | 'L';
  body?: Buffer | string;
  link?: string;
}

function needsPax(value: string, room: number): boolean {
  return Buffer.byteLength(value) > room || /[^\x20-\x7e]/.test(value);
}

function header(name: string, type: string, size: number, link: string): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, 'utf8');
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write('00000000000\0', 136);
  block.write('        ', 148);
  block.write(type, 156);
  block.write(link, 157, 100, 'utf8');
  block.write('ustar\0', 257);
  block.write('00', 263);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
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
    const shortName = needsPax(entry.name, 99) ? 'long-name' : entry.name;
    const shortLink = needsPax(link, 99) ? 'long-link' : link;
    blocks.push(header(shortName, entry.type ?? '0', body.length, shortLink), ...padded(body));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** The gzip'd tar stream, as `download_tar_gz_url` serves it. */
export function tarGz(entries: TarEntry[]): Buffer {
  return gzipSync(tarBytes(entries));
}
