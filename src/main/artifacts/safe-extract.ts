/**
 * Streams a (gzip'd) tar archive into a destination directory without ever writing
 * outside it. Every decision is made before anything is written: absolute names, `..`
 * components, links whose target leaves the destination, writing through a link the
 * archive created, and device files are refused with an error naming the entry. Files
 * are created exclusively (`wx`), so an existing file or symlink is never followed or
 * overwritten. Each file is hashed as it is written.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, linkSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { DebusineError } from '../../shared/errors';

export interface ExtractedFile {
  size: number;
  sha256: string;
}

export interface ExtractOptions {
  signal?: AbortSignal;
  /** Bytes written so far. */
  onBytes?: (bytes: number) => void;
  /** What the archive is, for messages (`artifact 12`). */
  label?: string;
}

function refuse(label: string, entry: string, reason: string, rule: string): DebusineError {
  return new DebusineError(
    'bad-response',
    `The archive of ${label} was refused: entry ${JSON.stringify(entry)} ${reason}`,
    { rule, file: entry },
  );
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Normalises an entry name, or returns a reason to refuse it. */
function entryName(raw: string): { name: string } | { reason: string; rule: string } {
  if (raw.includes('\0')) return { reason: 'contains a NUL byte', rule: 'archive-path' };
  if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw) || raw.startsWith('\\')) {
    return { reason: 'is an absolute path', rule: 'archive-absolute-path' };
  }
  const parts = raw.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { reason: 'contains ".."', rule: 'archive-dotdot' };
  return { name: parts.join('/') };
}

export async function extractTarStream(
  source: Readable,
  destination: string,
  options: ExtractOptions = {},
): Promise<Map<string, ExtractedFile>> {
  const label = options.label ?? 'the artifact';
  mkdirSync(destination, { recursive: true });
  const root = realpathSync(destination);
  const files = new Map<string, ExtractedFile>();
  const links = new Set<string>();
  const writes: Promise<void>[] = [];
  let written = 0;

  return new Promise((resolvePromise, reject) => {
    let failed = false;
    const parser = new Parser({ strict: true });
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.destroy();
      reject(error instanceof DebusineError ? error : refuseArchive(label, error));
    };
    const onAbort = () => {
      fail(new DebusineError('cancelled', `The download of ${label} was cancelled`, {}));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const handle = (entry: ReadEntry): void => {
      const parsed = entryName(entry.path);
      if ('reason' in parsed) throw refuse(label, entry.path, parsed.reason, parsed.rule);
      const { name } = parsed;
      if (name === '') {
        entry.resume();
        return;
      }
      const full = join(root, ...name.split('/'));
      const parts = name.split('/');
      for (let i = 1; i < parts.length; i++) {
        if (links.has(parts.slice(0, i).join('/'))) {
          throw refuse(
            label,
            entry.path,
            'would be written through a link in the archive',
            'archive-through-link',
          );
        }
      }
      if (files.has(name) || links.has(name)) {
        throw refuse(label, entry.path, 'appears twice', 'archive-duplicate');
      }
      // The parent may exist already (a pre-existing symlink): check where it really is.
      mkdirSync(dirname(full), { recursive: true });
      if (!inside(root, realpathSync(dirname(full)))) {
        throw refuse(
          label,
          entry.path,
          'would be written outside the destination',
          'archive-outside',
        );
      }
      switch (entry.type) {
        case 'Directory':
          mkdirSync(full, { recursive: true });
          entry.resume();
          return;
        case 'File':
        case 'OldFile':
        case 'ContiguousFile': {
          const out = createWriteStream(full, { flags: 'wx', mode: 0o644, highWaterMark: 2 ** 20 });
          const hash = createHash('sha256');
          let size = 0;
          entry.on('data', (chunk: Buffer) => {
            hash.update(chunk);
            size += chunk.length;
            written += chunk.length;
            options.onBytes?.(written);
          });
          writes.push(
            new Promise<void>((done, error) => {
              out.on('finish', () => {
                files.set(name, { size, sha256: hash.digest('hex') });
                done();
              });
              out.on('error', error);
            }),
          );
          entry.pipe(out);
          files.set(name, { size: -1, sha256: '' });
          return;
        }
        case 'SymbolicLink': {
          const target = entry.linkpath ?? '';
          if (
            target === '' ||
            posix.isAbsolute(target) ||
            !inside(root, join(dirname(full), target))
          ) {
            throw refuse(
              label,
              entry.path,
              `is a symbolic link pointing outside the destination (${target})`,
              'archive-symlink',
            );
          }
          symlinkSync(target, full);
          links.add(name);
          entry.resume();
          return;
        }
        case 'Link': {
          const target = entryName(entry.linkpath ?? '');
          if ('reason' in target || !files.has(target.name)) {
            throw refuse(
              label,
              entry.path,
              `is a hard link to something that is not a file of this archive (${entry.linkpath ?? ''})`,
              'archive-hardlink',
            );
          }
          linkSync(join(root, ...target.name.split('/')), full);
          const linked = files.get(target.name);
          if (linked) files.set(name, linked);
          entry.resume();
          return;
        }
        default:
          throw refuse(
            label,
            entry.path,
            `has an unsupported type (${entry.type})`,
            'archive-entry-type',
          );
      }
    };

    parser.on('entry', (entry: ReadEntry) => {
      if (failed) {
        entry.resume();
        return;
      }
      try {
        handle(entry);
      } catch (error) {
        entry.resume();
        fail(error);
      }
    });
    parser.on('error', fail);
    parser.on('end', () => {
      Promise.all(writes).then(() => {
        options.signal?.removeEventListener('abort', onAbort);
        if (!failed) resolvePromise(files);
      }, fail);
    });
    source.on('error', fail);
    source.pipe(parser);
  });
}

function refuseArchive(label: string, error: unknown): DebusineError {
  const message = error instanceof Error ? error.message : String(error);
  return new DebusineError(
    'bad-response',
    `The archive of ${label} is not a valid tar.gz: ${message}`,
    {
      rule: 'archive-format',
    },
  );
}
