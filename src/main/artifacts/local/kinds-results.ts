/**
 * Builders for the result and infrastructure kinds: autopkgtest, blhc, debdiff, lintian,
 * piuparts, system tarball, repository index, signing input/output/key and work request
 * debug logs. The stored file names (`blhc.txt`, `lintian.txt`...) are the ones the
 * server's tasks and views look for.
 */
import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { baseName } from '../../../shared/base-name';
import { DebusineError } from '../../../shared/errors';
import { OCTET_STREAM, TEXT_PLAIN } from './content-types';
import { readTextFile } from './debian-files';
import { CATEGORIES, withoutNulls } from './kind-data';
import { validateLocalArtifact } from './kind-rules';
import { LocalArtifact } from './local-artifact';

type Data = Record<string, unknown>;

async function finish(artifact: LocalArtifact): Promise<LocalArtifact> {
  validateLocalArtifact(artifact);
  return Promise.resolve(artifact);
}

async function walk(dir: string, skipTop: ReadonlySet<string>): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const top = full.slice(dir.length + 1).split('/')[0] ?? '';
    if (!skipTop.has(top)) out.push(full);
  }
  return out.sort();
}

/** Adds a task's plain-text report under the file name the server's views look for. */
async function addTextReport(artifact: LocalArtifact, file: string, name: string): Promise<void> {
  await artifact.addLocalFile(file, { overrideName: name, contentType: TEXT_PLAIN });
}

/** Adds files to sign or signed files as binary, relative to `baseDir` when one is given. */
async function addSigningFiles(
  artifact: LocalArtifact,
  files: readonly string[],
  baseDir: string | undefined,
): Promise<void> {
  for (const file of files) {
    await artifact.addLocalFile(file, {
      contentType: OCTET_STREAM,
      ...(baseDir ? { baseDirectory: baseDir } : {}),
    });
  }
}

export async function createAutopkgtest(input: {
  artifactDirectory: string;
  data: Data;
}): Promise<LocalArtifact> {
  const dir = resolve(input.artifactDirectory);
  const artifact = new LocalArtifact(CATEGORIES.autopkgtest, input.data);
  // binaries/ holds the packages under test, which are artifacts of their own.
  for (const file of await walk(dir, new Set(['binaries']))) {
    await artifact.addLocalFile(file, { baseDirectory: dir });
  }
  return finish(artifact);
}

export async function createBlhc(input: {
  blhcOutput: string;
  buildLog?: { source?: string; version?: string; architecture?: string | null } | null;
}): Promise<LocalArtifact> {
  const log = input.buildLog;
  const artifact = new LocalArtifact(
    CATEGORIES.blhc,
    withoutNulls({
      source: log?.source ?? null,
      version: log?.version ?? null,
      architecture: log?.architecture ?? null,
    }),
  );
  await addTextReport(artifact, input.blhcOutput, 'blhc.txt');
  return finish(artifact);
}

export async function createDebdiff(input: {
  debdiffOutput: string;
  original: string;
  new: string;
  label?: string | null;
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(
    CATEGORIES.debdiff,
    withoutNulls({ original: input.original, new: input.new, label: input.label ?? null }),
  );
  await addTextReport(artifact, input.debdiffOutput, 'debdiff.txt');
  return finish(artifact);
}

export async function createLintian(input: {
  analysis: string;
  lintianOutput: string;
  architecture?: string | null;
  summary: Data;
}): Promise<LocalArtifact> {
  const text = await readTextFile(input.analysis);
  try {
    JSON.parse(text);
  } catch (error) {
    throw new DebusineError(
      'validation',
      `analysis.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { rule: 'lintian.analysis-json', file: input.analysis },
    );
  }
  const artifact = new LocalArtifact(
    CATEGORIES.lintian,
    withoutNulls({ architecture: input.architecture ?? null, summary: input.summary }),
  );
  await artifact.addLocalFile(input.analysis, { overrideName: 'analysis.json' });
  await addTextReport(artifact, input.lintianOutput, 'lintian.txt');
  return finish(artifact);
}

export async function createPiuparts(input: {
  piupartsOutput: string;
  data: Data;
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(CATEGORIES.piuparts, input.data);
  await addTextReport(artifact, input.piupartsOutput, 'piuparts.txt');
  return finish(artifact);
}

export async function createSystemTarball(input: {
  tarball: string;
  data: Data;
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(CATEGORIES.systemTarball, {
    filename: basename(input.tarball),
    ...input.data,
  });
  await artifact.addLocalFile(input.tarball);
  return finish(artifact);
}

export async function createRepositoryIndex(input: {
  file: string;
  path: string;
  contentType?: string | null;
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(CATEGORIES.repositoryIndex, { path: input.path });
  await artifact.addLocalFile(input.file, {
    overrideName: baseName(input.path),
    ...(input.contentType ? { contentType: input.contentType } : {}),
  });
  return finish(artifact);
}

/** Signing input and output: their data, and the files to sign or that were signed. */
async function createSigning(
  category: string,
  data: Data,
  input: { files: string[]; baseDir?: string },
): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(category, withoutNulls(data));
  await addSigningFiles(artifact, input.files, input.baseDir);
  return finish(artifact);
}

export async function createSigningInput(input: {
  files: string[];
  baseDir?: string;
  trustedCerts?: string[] | null;
  binaryPackageName?: string | null;
}): Promise<LocalArtifact> {
  return createSigning(
    CATEGORIES.signingInput,
    {
      trusted_certs: input.trustedCerts ?? null,
      binary_package_name: input.binaryPackageName ?? null,
    },
    input,
  );
}

export async function createSigningOutput(input: {
  purpose: string;
  fingerprint: string;
  results: { file: string; output_file?: string | null; error_message?: string | null }[];
  files: string[];
  baseDir?: string;
  binaryPackageName?: string | null;
}): Promise<LocalArtifact> {
  return createSigning(
    CATEGORIES.signingOutput,
    {
      purpose: input.purpose,
      fingerprint: input.fingerprint,
      results: input.results.map((r) => withoutNulls(r)),
      binary_package_name: input.binaryPackageName ?? null,
    },
    input,
  );
}

/** Earlier revision of the interface only: records that a key exists; no files. */
export async function createSigningKey(input: {
  purpose: string;
  fingerprint: string;
  publicKey: string | Uint8Array;
}): Promise<LocalArtifact> {
  const publicKey =
    typeof input.publicKey === 'string'
      ? input.publicKey
      : Buffer.from(input.publicKey).toString('utf8');
  const artifact = new LocalArtifact(CATEGORIES.signingKey, {
    purpose: input.purpose,
    fingerprint: input.fingerprint,
    public_key: publicKey,
  });
  return finish(artifact);
}

export async function createWorkRequestDebugLogs(input: {
  files: string[];
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(CATEGORIES.workRequestDebugLogs, {});
  for (const file of input.files) await artifact.addLocalFile(file, { contentType: TEXT_PLAIN });
  return finish(artifact);
}
