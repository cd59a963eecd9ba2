/**
 * Reads the control fields of a `.deb`/`.udeb` from the package itself: the ar archive
 * (whose whole structure deb-archive.ts checks first), then `control.tar` (uncompressed,
 * gzip, xz or zstd), then its `control` file. Only the ar headers and the control member
 * are read; the (large) data member is never touched.
 */
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import * as xzNamespace from 'xz-decompress';
import { withFile } from '../hashing/checksums';
import { debError, readDebLayout } from './deb-archive';
import { parseDeb822, type Deb822Paragraph } from './deb822';
import { readTar } from './tar-reader';

// xz-decompress is CommonJS without named-export hints: Node's own ESM loader (the built
// web host) sees its exports only under `default`, while vitest and bundlers see them
// named. Take whichever is there.
const xz = xzNamespace as typeof xzNamespace & { default?: typeof xzNamespace };
const XzReadableStream = xz.default?.XzReadableStream ?? xz.XzReadableStream;

/** control.tar members are a few kB; these bounds stop a hostile package early. */
const MAX_CONTROL_MEMBER = 16 * 1024 * 1024;
const MAX_CONTROL_UNPACKED = 64 * 1024 * 1024;

export interface DebControl {
  fields: Deb822Paragraph;
  /** Names of the members of control.tar (`control`, `md5sums`, `postinst`...), sorted. */
  controlFiles: string[];
}

async function readControlMember(
  file: string,
  handle: FileHandle,
): Promise<{ name: string; data: Buffer }> {
  const { control } = await readDebLayout(file, handle);
  if (control.size > MAX_CONTROL_MEMBER) throw debError(file, `${control.name} is too large`);
  const data = Buffer.alloc(control.size);
  const { bytesRead } = await handle.read(data, 0, control.size, control.offset);
  // The layout found the member inside the file: a short read means it just shrank.
  if (bytesRead !== control.size) throw debError(file, `${control.name} could not be read whole`);
  return { name: control.name, data };
}

async function unxz(data: Buffer): Promise<Buffer> {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of new XzReadableStream(input) as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > MAX_CONTROL_UNPACKED) throw new Error('control.tar unpacks too large');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function unzstd(data: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = new ZstdDecompress((chunk) => {
    total += chunk.length;
    if (total > MAX_CONTROL_UNPACKED) throw new Error('control.tar unpacks too large');
    chunks.push(Buffer.from(chunk));
  });
  stream.push(new Uint8Array(data), true);
  return Buffer.concat(chunks);
}

async function decompress(file: string, name: string, data: Buffer): Promise<Buffer> {
  try {
    if (name === 'control.tar') return data;
    if (name === 'control.tar.gz')
      return gunzipSync(data, { maxOutputLength: MAX_CONTROL_UNPACKED });
    if (name === 'control.tar.xz') return await unxz(data);
    if (name === 'control.tar.zst') return unzstd(data);
  } catch (error) {
    throw debError(
      file,
      `cannot decompress ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  throw debError(file, `unsupported control member compression: ${name}`);
}

export async function readDebControl(file: string): Promise<DebControl> {
  const member = await withFile(file, (handle) => readControlMember(file, handle));
  const tar = await decompress(file, member.name, member.data);
  let members;
  try {
    members = readTar(tar);
  } catch (error) {
    throw debError(
      file,
      `malformed ${member.name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const control = members.find(
    (m) => m.type === 'file' && m.name.replace(/^\.\//, '') === 'control',
  );
  if (!control) throw debError(file, `${member.name} has no control file`);
  const doc = parseDeb822(control.data.toString('utf8'), { file: `${basename(file)}:control` });
  const fields = doc.paragraphs[0];
  if (!fields) throw debError(file, 'the control file is empty');
  // python-debian lists the names under "./" with those characters stripped.
  const controlFiles = members
    .map((m) => m.name.replace(/\/+$/, ''))
    .filter((name) => name.startsWith('./'))
    .map((name) => name.replace(/^[./]+/, ''))
    .sort();
  return { fields, controlFiles };
}
