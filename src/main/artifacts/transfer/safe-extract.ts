/**
 * Receiving an artifact's tarball: unpacked as it streams, every member admitted against
 * the artifact's declared files (archive-members.ts) before a byte of it is written, then
 * written into the staging folder (or, when the tarball itself is kept, only hashed) and
 * checked against its declared SHA-256. The compressed and the unpacked streams are both
 * bounded by what the declared files can take up, so a hostile server can neither fill
 * the disk nor keep the app unpacking forever.
 */
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DebusineError } from '../../../shared/errors';
import { owned } from '../../streams';
import { admitMember } from './archive-members';
import { quotePath } from '../formats/artifact-paths';
import { BoundedFile } from './bounded-file';
import type { DeclaredFiles } from './declared-files';
import {
  asDownloadError,
  connectionBroke,
  subjectText,
  downloadError,
  endedEarly,
  hashMismatch,
  type Subject,
} from './download-errors';
import type { Staging } from './staging';
import { readTarStream, TarFormatError, type TarEntry, type TarSink } from '../formats/tar-stream';

export interface ArchiveOptions {
  /** Where members are written; without it they are only checked. */
  staging?: Staging;
  /** Also keep the compressed stream whole, in this file, named `name` in messages. */
  keep?: { path: string; name: string };
  signal?: AbortSignal;
  /** Bytes of the artifact's files received so far. */
  onBytes?: (bytes: number) => void;
}

/** Room per member for its header, a pax header with a long name, and padding. */
const PER_MEMBER = 8 * 1024;
/** Room for the end-of-archive blocks, the writer's padding, and gzip's own headers. */
const SLACK = 64 * 1024;
/**
 * Files still being flushed and closed while the next members are read. A member's hash
 * is known as soon as its last byte arrives; waiting for each close in turn made 10,000
 * small files take twice as long.
 */
const CLOSING = 32;
/**
 * zlib inflates each write in a round trip to its thread pool, and the socket delivers
 * 64 KiB at a time: handing it 1 MiB at a time (and taking 1 MiB back) made inflating
 * 60 MiB about five times faster (measured: 260 ms → 30–50 ms).
 */
const INFLATE_INPUT = 2 ** 20;

/** The most an honest tarball of these files can take, unpacked and compressed. */
export function archiveLimits(declared: DeclaredFiles): { unpacked: number; compressed: number } {
  let unpacked = SLACK;
  for (const file of declared.files.values()) {
    unpacked += Math.ceil(file.size / 512) * 512 + PER_MEMBER;
  }
  // Deflate grows data it cannot compress by 5 bytes per block of up to 64 KiB.
  return { unpacked, compressed: unpacked + Math.ceil(unpacked / 1024) + SLACK };
}

function overLimit(subject: Subject, what: string, limit: number, files: number): DebusineError {
  return downloadError(
    'bad-response',
    subject,
    'download-size',
    `${subjectText(subject)} was refused: it ${what} more than ${String(limit)} bytes, more than an archive of the artifact's ${String(files)} declared files can take`,
    { expected: limit },
  );
}

export async function receiveArchive(
  source: Readable,
  declared: DeclaredFiles,
  options: ArchiveOptions = {},
): Promise<void> {
  const id = declared.artifact;
  const archive: Subject = { artifact: id, ...(options.keep ? { file: options.keep.name } : {}) };
  const limits = archiveLimits(declared);
  const seen = new Set<string>();
  let current: { name: string; out: BoundedFile; size: number } | undefined;
  const open = new Set<BoundedFile>();
  const closing: Promise<void>[] = [];
  let done = 0;
  // Where the download failed first, and with what: when one part of a pipeline fails,
  // the others are torn down with errors of their own (an AbortError from the last).
  let origin: 'source' | 'unzip' | 'local' | undefined;
  let failure: unknown;
  const failed = (where: NonNullable<typeof origin>, error: unknown) => {
    if (origin !== undefined) return;
    origin = where;
    failure = error;
  };
  const kept = options.keep
    ? new BoundedFile(options.keep.path, limits.compressed, archive, false)
    : undefined;

  let compressed = 0;
  let batch: Buffer[] = [];
  let batched = 0;
  const meter = owned(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        compressed += chunk.length;
        if (compressed > limits.compressed) {
          const error = overLimit(archive, 'is', limits.compressed, declared.files.size);
          failed('local', error);
          callback(error);
          return;
        }
        const pass = () => {
          batch.push(chunk);
          batched += chunk.length;
          if (batched < INFLATE_INPUT) {
            callback();
            return;
          }
          const joined = Buffer.concat(batch, batched);
          batch = [];
          batched = 0;
          callback(null, joined);
        };
        const wait = kept?.write(chunk);
        if (!wait) {
          pass();
          return;
        }
        wait.then(pass, (error: unknown) => {
          failed('local', error);
          callback(error as Error);
        });
      },
      flush(callback) {
        callback(null, batched > 0 ? Buffer.concat(batch, batched) : undefined);
      },
    }),
  );
  async function* bounded(input: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    let unpacked = 0;
    for await (const chunk of input) {
      const room = limits.unpacked - unpacked;
      unpacked += chunk.length;
      if (chunk.length <= room) {
        yield chunk;
        continue;
      }
      // What fits is read first, so that a member refused for its own size says so.
      if (room > 0) yield chunk.subarray(0, room);
      throw overLimit(archive, 'unpacks to', limits.unpacked, declared.files.size);
    }
  }

  const member = async (entry: TarEntry): Promise<TarSink | undefined> => {
    const file = admitMember(entry, declared, seen);
    if (!file) return undefined;
    const name = file.path;
    const subject = { artifact: id, file: name };
    const out = new BoundedFile(await options.staging?.prepare(name), file.size, subject);
    open.add(out);
    current = { name, out, size: file.size };
    return {
      write(chunk) {
        const wait = out.write(chunk);
        options.onBytes?.(done + out.size);
        return wait;
      },
      async end() {
        const { sha256 } = out.finish();
        current = undefined;
        done += file.size;
        if (sha256 !== file.sha256) throw hashMismatch(subject, file.sha256, sha256);
        options.onBytes?.(done);
        const closed = out.closed().then(() => {
          open.delete(out);
        });
        // Awaited below; until then, a failure is not an unhandled rejection.
        closed.catch(() => undefined);
        closing.push(closed);
        if (closing.length >= CLOSING) await closing.shift();
      },
    };
  };

  source.once('error', (error) => {
    failed('source', error);
  });
  // Owned as well as listened to: each part of the pipeline may fail more than once as it
  // is torn down, after the pipeline has let go of it.
  const unzip = owned(createGunzip({ chunkSize: INFLATE_INPUT }));
  unzip.once('error', (error) => {
    failed('unzip', error);
  });
  try {
    await pipeline(
      source,
      meter,
      unzip,
      async (input: AsyncIterable<Buffer>) => {
        try {
          await readTarStream(bounded(input), { entry: member });
          await Promise.all(closing);
        } catch (error) {
          failed('local', error);
          throw error;
        }
      },
      options.signal ? { signal: options.signal } : {},
    );
    kept?.finish();
    await kept?.closed();
  } catch (error) {
    await Promise.all([...open].map((out) => out.abort()));
    await kept?.abort();
    throw explain(origin === undefined ? error : failure);
  }
  for (const path of declared.files.keys()) {
    if (!seen.has(path)) {
      const pending = declared.pending.has(path) ? ' (the server has not received it yet)' : '';
      throw downloadError(
        'bad-response',
        { artifact: id, file: path },
        'archive-missing',
        `The archive of artifact ${String(id)} was refused: it lacks ${quotePath(path)}, which the artifact declares${pending}`,
      );
    }
  }

  /** What went wrong, said in terms of the artifact and the member being read. */
  function explain(error: unknown): unknown {
    if (error instanceof DebusineError) return error;
    const known = asDownloadError(archive, error, options.signal);
    if (known !== error) return known;
    const at: Subject = current ? { artifact: id, file: current.name } : archive;
    const received = current ? current.out.size : done;
    const of = current ? current.size : declared.total;
    if (origin === 'source') {
      const whole = current
        ? `; ${String(done + received)} of ${String(declared.total)} bytes of the artifact had arrived`
        : '';
      return connectionBroke(at, received, of, error, whole);
    }
    const reason = error instanceof Error ? error.message : String(error);
    if (origin === 'unzip' && (error as { code?: string }).code === 'Z_BUF_ERROR') {
      return endedEarly(at, received, of);
    }
    if (origin === 'unzip' || error instanceof TarFormatError) {
      const what =
        error instanceof TarFormatError ? `it ${reason}` : `it is not valid gzip (${reason})`;
      return downloadError(
        'bad-response',
        archive,
        'archive-format',
        `${subjectText(archive)} was refused: ${what}`,
      );
    }
    return new DebusineError(
      'internal',
      `Cannot unpack ${subjectText(at)}: ${reason}`,
      { artifact: id, operation: 'downloadArtifact' },
      error,
    );
  }
}
