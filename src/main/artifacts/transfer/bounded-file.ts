/**
 * A file being received: written in 1 MiB pieces and hashed as it arrives, refused the
 * moment it would grow past the size the artifact declares (the byte that would cross it
 * is never written). With no path it only counts and hashes (a member of a tarball that is
 * kept whole).
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { DebusineError } from '../../../shared/errors';
import { subjectText, tooLarge, type Subject } from './download-errors';

/** Writes of 1 MiB rather than 16 KiB: fewer system calls and fewer pauses. */
const WRITE_BUFFER = 2 ** 20;

export class BoundedFile {
  readonly #out: WriteStream | undefined;
  readonly #hash: Hash | undefined;
  readonly #limit: number;
  readonly #subject: Subject;
  #size = 0;

  /**
   * `path`: where to write (created exclusively), if anywhere; `limit`: the declared size;
   * `hashed`: false when no one will look at the SHA-256 (`finish` then gives "").
   */
  constructor(path: string | undefined, limit: number, subject: Subject, hashed = true) {
    this.#limit = limit;
    this.#subject = subject;
    this.#hash = hashed ? createHash('sha256') : undefined;
    if (path !== undefined) {
      this.#out = createWriteStream(path, { flags: 'wx', highWaterMark: WRITE_BUFFER });
      // Errors surface through write() and close(); this keeps an early one from being
      // reported as unhandled before either is awaited.
      this.#out.on('error', () => undefined);
    }
  }

  get size(): number {
    return this.#size;
  }

  /** Takes a chunk; the promise, when there is one, resolves once the disk caught up. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.#size + chunk.length > this.#limit) throw tooLarge(this.#subject, this.#limit);
    this.#size += chunk.length;
    this.#hash?.update(chunk);
    const out = this.#out;
    if (!out) return undefined;
    if (out.errored) return Promise.reject(this.#writeError(out.errored));
    if (out.write(chunk)) return undefined;
    return once(out, 'drain').then(
      () => undefined,
      (error: unknown) => Promise.reject(this.#writeError(error)),
    );
  }

  /**
   * Ends the file: its size and SHA-256, known at once; the disk may still be catching up
   * (see `closed`).
   */
  finish(): { size: number; sha256: string } {
    this.#out?.end();
    return { size: this.#size, sha256: this.#hash?.digest('hex') ?? '' };
  }

  /** Resolves once all of it is on disk and the file is closed. */
  async closed(): Promise<void> {
    if (!this.#out) return;
    await finished(this.#out).catch((error: unknown) => Promise.reject(this.#writeError(error)));
  }

  /** Stops writing (the file itself goes with the staging folder). */
  async abort(): Promise<void> {
    if (!this.#out || this.#out.closed) return;
    this.#out.destroy();
    await once(this.#out, 'close').catch(() => undefined);
  }

  #writeError(error: unknown): DebusineError {
    const reason = error instanceof Error ? error.message : String(error);
    return new DebusineError(
      'internal',
      `Cannot write ${subjectText(this.#subject)} to disk: ${reason}`,
      {
        operation: 'downloadArtifact',
        artifact: this.#subject.artifact,
        ...(this.#subject.file === undefined ? {} : { file: this.#subject.file }),
        rule: 'download-write',
      },
      error,
    );
  }
}
