/**
 * The local artifact: what a client assembles before uploading, as the Debusine client's
 * LocalArtifact has it (`category`, `files`, `remote_files`, `content_types`, `data`). Its
 * JSON form is strict (unknown fields are refused), so that it can be persisted in upload
 * jobs and cross the bridge. File-set rules per kind live in kind-rules.ts.
 */
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { DebusineError } from '../../../shared/errors';
import {
  fileRequestSchema,
  type ArtifactCreateRequest,
  type FileRequest,
} from '../../../shared/models';
import { artifactPathProblem, quotePath } from '../formats/artifact-paths';
import { guessContentType } from './content-types';
import { checkLocalFiles } from './local-checks';

export const localArtifactSchema = z.strictObject({
  category: z.string().min(1).max(255),
  /** Path in the artifact → absolute local path. */
  files: z.record(z.string(), z.string()).default({}),
  remote_files: z.record(z.string(), fileRequestSchema).default({}),
  content_types: z.record(z.string(), z.string()).default({}),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type LocalArtifactJson = z.output<typeof localArtifactSchema>;

export interface AddFileOptions {
  /** Absolute directory; the path in the artifact is the file's path relative to it. */
  baseDirectory?: string;
  /** The path in the artifact, instead of the file name. */
  overrideName?: string;
  /** Recorded for serving instead of being guessed. */
  contentType?: string;
}

function fileRule(rule: string, message: string, file: string): DebusineError {
  return new DebusineError('validation', message, { rule, file });
}

export class LocalArtifact {
  category: string;
  readonly files = new Map<string, string>();
  readonly remoteFiles = new Map<string, FileRequest>();
  readonly contentTypes = new Map<string, string>();
  data: Record<string, unknown>;

  constructor(category: string, data: Record<string, unknown> = {}) {
    this.category = category;
    this.data = data;
  }

  /** Parses the strict JSON form; unknown fields and wrong types are a validation error. */
  static fromJSON(value: unknown): LocalArtifact {
    const result = localArtifactSchema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      const field = issue?.path.map(String).join('.') ?? '';
      throw new DebusineError(
        'validation',
        `Not a valid local artifact${field ? ` (field '${field}')` : ''}: ${issue?.message ?? ''}`,
        { field, rule: 'local-artifact-shape' },
      );
    }
    const json = result.data;
    const artifact = new LocalArtifact(json.category, json.data);
    for (const [path, file] of Object.entries(json.files)) artifact.files.set(path, file);
    for (const [path, req] of Object.entries(json.remote_files))
      artifact.remoteFiles.set(path, req);
    for (const [path, type] of Object.entries(json.content_types)) {
      artifact.contentTypes.set(path, type);
    }
    return artifact;
  }

  toJSON(): LocalArtifactJson {
    return {
      category: this.category,
      files: Object.fromEntries(this.files),
      remote_files: Object.fromEntries(this.remoteFiles),
      content_types: Object.fromEntries(this.contentTypes),
      data: this.data,
    };
  }

  /** Every path in the artifact, local or remote, sorted. */
  paths(): string[] {
    return [...new Set([...this.files.keys(), ...this.remoteFiles.keys()])].sort();
  }

  hasPath(path: string): boolean {
    return this.files.has(path) || this.remoteFiles.has(path);
  }

  /** Adds a local file; returns its path in the artifact. */
  async addLocalFile(file: string, options: AddFileOptions = {}): Promise<string> {
    const absolute = resolve(file);
    let pathInArtifact: string;
    if (options.baseDirectory !== undefined) {
      const base = options.baseDirectory;
      if (!isAbsolute(base)) {
        throw fileRule('base-dir-absolute', `Base directory "${base}" must be absolute`, file);
      }
      const baseStat = await stat(base).catch(() => undefined);
      if (!baseStat?.isDirectory()) {
        throw fileRule('base-dir-directory', `Base directory "${base}" is not a directory`, file);
      }
      const rel = relative(base, absolute);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
        throw fileRule('file-in-base-dir', `"${file}" is not inside "${base}"`, file);
      }
      pathInArtifact = rel.split(sep).join('/');
    } else {
      pathInArtifact = basename(absolute);
    }
    if (options.overrideName !== undefined) pathInArtifact = options.overrideName;
    checkPathInArtifact(pathInArtifact, file);
    const fileStat = await stat(absolute).catch(() => undefined);
    if (!fileStat) throw fileRule('file-exists', `File "${file}" does not exist`, file);
    if (!fileStat.isFile()) throw fileRule('file-regular', `"${file}" is not a regular file`, file);
    if (this.hasPath(pathInArtifact)) {
      throw fileRule(
        'path-unique',
        `File with the same path ("${pathInArtifact}") is already in the artifact`,
        file,
      );
    }
    this.files.set(pathInArtifact, absolute);
    if (options.contentType !== undefined)
      this.contentTypes.set(pathInArtifact, options.contentType);
    return pathInArtifact;
  }

  /** Declares a file the server already has (the upload fails if it does not). */
  addRemoteFile(pathInArtifact: string, request: FileRequest): void {
    checkPathInArtifact(pathInArtifact, pathInArtifact);
    if (this.hasPath(pathInArtifact)) {
      throw fileRule(
        'path-unique',
        `File with the same path ("${pathInArtifact}") is already in the artifact`,
        pathInArtifact,
      );
    }
    this.remoteFiles.set(pathInArtifact, fileRequestSchema.parse(request));
  }

  contentTypeOf(pathInArtifact: string): string {
    return this.contentTypes.get(pathInArtifact) ?? guessContentType(pathInArtifact);
  }

  /**
   * The create request: sizes and SHA-256 of every local file, streamed. The local files
   * are checked first (local-checks.ts: listed sizes and checksums, whole packages), in the
   * same pass over each file, so that a wrong file fails here, before any request is sent.
   */
  async createRequest(
    options: { workspace?: string | null; workRequest?: number | null; expireAt?: string | null },
    signal?: AbortSignal,
  ): Promise<ArtifactCreateRequest> {
    const digests = await checkLocalFiles(this, { everyFile: true, ...(signal ? { signal } : {}) });
    const files: Record<string, FileRequest> = {};
    for (const path of this.files.keys()) {
      const digest = digests.get(path);
      if (!digest?.digests.sha256) {
        throw new DebusineError('internal', `No SHA-256 was computed for ${path}`, { file: path });
      }
      files[path] = {
        size: digest.size,
        checksums: { sha256: digest.digests.sha256 },
        type: 'file',
        content_type: this.contentTypeOf(path),
      };
    }
    for (const [path, remote] of this.remoteFiles) files[path] = remote;
    return {
      category: this.category,
      workspace: options.workspace ?? null,
      files,
      data: this.data,
      work_request: options.workRequest ?? null,
      expire_at: options.expireAt ?? null,
    };
  }
}

/**
 * Why Debusine cannot take `path` as a file of a new artifact, or undefined: it must be a
 * path safe on every disk (artifactPathProblem), without whitespace. The server's answer
 * to the creation lists each file with a download URL ending in its path, and refuses a
 * URL with whitespace in it ("url: Enter a valid URL."), so the whole artifact is refused.
 */
export function uploadPathProblem(path: string): string | undefined {
  return (
    artifactPathProblem(path) ??
    (/\s/.test(path) ? 'contains whitespace, which Debusine cannot list in an artifact' : undefined)
  );
}

/** Refuses a path `uploadPathProblem` finds fault with; `file` is the local file it names. */
export function checkPathInArtifact(path: string, file: string): void {
  const problem = uploadPathProblem(path);
  if (problem !== undefined) {
    throw fileRule(
      'path-in-artifact',
      `Invalid path in the artifact ${quotePath(path)}: it ${problem}`,
      file,
    );
  }
}
