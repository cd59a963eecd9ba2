/**
 * Sending the files of an existing artifact, several at once (4 by default): the transfer
 * step of the upload engine (upload-engine.ts), which decides what to send.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import { ProgressTracker, type ProgressListener } from './progress';
import { transportOf, type ClientLike } from './remote';
import { uploadFile } from './upload-file';

export interface TransferOptions {
  concurrency?: number;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
  /** Chunk size in bytes (at most 50 MiB); tests use small ones. */
  chunkSize?: number;
  retryBaseMs?: number;
  /** Attempts per chunk on 5xx and network errors (default 6). */
  maxRetries?: number;
}

export interface UploadFilesOptions extends TransferOptions {
  /** Base for relative local paths. */
  baseDirectory?: string;
  /** Called before the first byte of each file leaves (the engine records it as begun). */
  onFileStart?: (path: string) => Promise<void>;
  /** Called after each file the server confirms (the engine records it as done). */
  onFileDone?: (path: string) => Promise<void>;
  /**
   * Whether the server may hold part of this file and must be asked where to go on (one
   * request per file). A file of an artifact just created holds nothing yet: it starts at
   * 0. Every file is probed when this is absent.
   */
  needsProbe?: (path: string) => boolean;
}

async function runPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
  if (failure !== undefined) throw failure;
}

export async function uploadFiles(
  client: ClientLike,
  artifactId: number,
  files: Record<string, string> | Map<string, string>,
  options: UploadFilesOptions = {},
): Promise<{ uploaded: string[]; present: string[] }> {
  const http = transportOf(client);
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  const sized: { path: string; local: string; size: number }[] = [];
  for (const [path, local] of entries) {
    const full =
      isAbsolute(local) || !options.baseDirectory ? local : join(options.baseDirectory, local);
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile()) {
      throw new DebusineError(
        'validation',
        `Cannot upload ${path}: "${full}" is not a readable file`,
        {
          file: full,
          rule: 'file-exists',
        },
      );
    }
    sized.push({ path, local: full, size: info.size });
  }
  // The largest first: the upload lasts at least as long as its largest file, so that one
  // starts while the others share the remaining places. Listed last, a package's orig
  // tarball began after the small files had each waited for the job to record them.
  sized.sort((a, b) => b.size - a.size);
  const tracker = new ProgressTracker(
    sized.map((f) => [f.path, f.size]),
    options.onProgress,
  );
  const uploaded: string[] = [];
  const present: string[] = [];
  // Controller so that one failed file stops the others quickly.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  try {
    await runPool(sized, options.concurrency ?? 4, async (file) => {
      try {
        // Decided before the file is recorded as begun, which would make it need one.
        const probe = options.needsProbe?.(file.path) ?? true;
        await options.onFileStart?.(file.path);
        const outcome = await uploadFile(http, {
          artifactId,
          pathInArtifact: file.path,
          localFile: file.local,
          size: file.size,
          signal,
          ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
          ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}),
          ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          ...(probe ? {} : { startAt: 0 }),
          onBytes: (bytes) => {
            tracker.update(file.path, bytes);
          },
        });
        (outcome === 'uploaded' ? uploaded : present).push(file.path);
        tracker.update(file.path, file.size, outcome === 'uploaded' ? 'done' : 'skipped');
        await options.onFileDone?.(file.path);
      } catch (error) {
        tracker.update(file.path, 0, 'failed');
        stop.abort();
        throw error;
      }
    });
  } catch (error) {
    if (options.signal?.aborted) {
      throw new DebusineError(
        'cancelled',
        `The upload to artifact ${String(artifactId)} was cancelled`,
        {
          operation: 'uploadFiles',
        },
      );
    }
    throw error;
  }
  return { uploaded: uploaded.sort(), present: present.sort() };
}
