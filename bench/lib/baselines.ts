/**
 * What the app is measured against: raw HTTP with curl, the Debusine CLI (in the server's
 * chroot), and OpenSSL.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { dputAsAlice, uploadOnlyProfile, writeDputProfile } from '../../test/support/dput-ng';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
  BENCH_CATEGORY,
  createArtifactRaw,
  postJson,
  runCli,
  uploadUrl,
  type BenchServer,
  type FileDecl,
} from './server';

const exec = promisify(execFile);

/**
 * One PUT of a whole file (no Content-Range: the server takes it in one request). `-T`
 * streams the file with a Content-Length (`--data-binary @file` would read it all into
 * memory first); as `-T` appends the file name to a URL ending in `/`, the path goes in
 * `--request-target`.
 */
async function curlPut(server: BenchServer, url: string, file: string): Promise<void> {
  const target = new URL(url);
  await curl(server, `PUT ${url}`, '201', [
    '-T',
    file,
    '-H',
    'Expect:',
    '--request-target',
    target.pathname,
    `${target.origin}/upload`,
  ]);
}

/** The empty PUT (Content-Range with `*` as its range) that asks what the server holds. */
async function curlProbe(server: BenchServer, url: string, size: number): Promise<void> {
  await curl(server, `probe ${url}`, '206', [
    '-X',
    'PUT',
    '-H',
    `Content-Range: bytes */${String(size)}`,
    '--data-binary',
    '',
    url,
  ]);
}

/** One curl request with the server's token and scope, which must answer `expected`. */
async function curl(
  server: BenchServer,
  what: string,
  expected: string,
  args: string[],
): Promise<void> {
  const { stdout } = await exec('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    `Token: ${server.token}`,
    '-H',
    `X-Debusine-Scope: ${server.scope}`,
    ...args,
  ]);
  if (stdout.trim() !== expected) throw new Error(`curl ${what}: HTTP ${stdout.trim()}`);
}

/**
 * The file in PUTs of at most `chunk` bytes with Content-Range, as the Debusine client does
 * (the 50 MiB bound keeps under Nginx's `client_max_body_size` of 100 MiB on real servers).
 */
async function curlPutChunked(
  server: BenchServer,
  url: string,
  file: string,
  size: number,
  chunk: number,
): Promise<void> {
  for (let start = 0; start < size; start += chunk) {
    const end = Math.min(start + chunk, size) - 1;
    const { stdout } = await exec(
      'bash',
      [
        '-o',
        'pipefail',
        '-c',
        'dd if="$FILE" bs=1M iflag=skip_bytes,count_bytes skip=$START count=$((END - START + 1)) status=none | ' +
          'curl -sS -o /dev/null -w "%{http_code}" -X PUT -H "Token: $TOKEN" ' +
          '-H "X-Debusine-Scope: $SCOPE" -H "Content-Range: bytes $START-$END/$SIZE" ' +
          '-H "Expect:" --data-binary @- "$URL"',
      ],
      {
        env: {
          ...process.env,
          START: String(start),
          END: String(end),
          SIZE: String(size),
          FILE: file,
          TOKEN: server.token,
          SCOPE: server.scope,
          URL: url,
        },
      },
    );
    const expected = end === size - 1 ? '201' : '200';
    if (stdout.trim() !== expected) {
      throw new Error(
        `curl chunk ${String(start)}-${String(end)} of ${url}: HTTP ${stdout.trim()}`,
      );
    }
  }
}

export interface CurlUploadOptions {
  /** Parallel PUTs (files at a time). */
  parallel: number;
  /** Probe each file first, as the app and the CLI do. */
  probe?: boolean;
  /** Send each file in chunks of this size (with Content-Range) rather than in one PUT. */
  chunk?: number;
}

/** Sizes and SHA-256 of files, with one `openssl dgst` for all of them. */
export async function opensslDeclare(
  paths: Record<string, string>,
): Promise<Record<string, { path: string; decl: FileDecl }>> {
  const entries = Object.entries(paths);
  const { stdout } = await exec(
    'openssl',
    ['dgst', '-sha256', '-r', ...entries.map(([, p]) => p)],
    {
      maxBuffer: 64 * 2 ** 20,
    },
  );
  const lines = stdout.trim().split('\n');
  const out: Record<string, { path: string; decl: FileDecl }> = {};
  for (const [i, [name, path]] of entries.entries()) {
    const sha256 = lines[i]?.split(' ')[0];
    if (!sha256) throw new Error(`openssl gave no digest for ${path}`);
    out[name] = { path, decl: { size: (await stat(path)).size, sha256 } };
  }
  return out;
}

/**
 * The raw-HTTP baseline: hash with OpenSSL, create the artifact, then PUT every file it
 * asks for with curl, `parallel` at a time.
 */
export async function curlUpload(
  server: BenchServer,
  paths: Record<string, string>,
  options: CurlUploadOptions,
): Promise<void> {
  const files = await opensslDeclare(paths);
  const decls = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.decl]));
  const { id, filesToUpload } = await createArtifactRaw(server, decls);
  if (filesToUpload.length !== Object.keys(files).length) {
    throw new Error(`the server already had some files (deduplicated): data not unique`);
  }
  await curlPutAll(server, id, filesToUpload, files, options);
}

/** PUTs the files an artifact asks for with curl, `parallel` at a time. */
async function curlPutAll(
  server: BenchServer,
  id: number,
  filesToUpload: string[],
  files: Record<string, { path: string; decl: FileDecl } | undefined>,
  options: CurlUploadOptions,
): Promise<void> {
  const queue = [...filesToUpload];
  const worker = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const file = files[name];
      if (!file) throw new Error(`server asked for unknown file ${name}`);
      const url = uploadUrl(server, id, name);
      if (options.probe) await curlProbe(server, url, file.decl.size);
      if (options.chunk)
        await curlPutChunked(server, url, file.path, file.decl.size, options.chunk);
      else await curlPut(server, url, file.path);
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, worker));
}

/** One artifact as dput-ng prepares it: its category, data, and files (name → host path). */
export interface PreparedArtifact {
  category: string;
  data: unknown;
  files: Record<string, string>;
}

/**
 * The artifacts dput-ng makes of a .changes (the upload first, then the source and binary
 * packages), read with dput-ng's own `prepare_changes_for_upload` in the chroot, so that a
 * raw-HTTP run can make the same server state without parsing anything itself.
 */
export function dputArtifactsOf(server: BenchServer, chrootChanges: string): PreparedArtifact[] {
  return preparedArtifacts(server, 'prepare_changes_for_upload', chrootChanges);
}

/**
 * The source package artifact `debusine import-debian` makes of a .dsc, read with the
 * client's own `prepare_dsc_for_upload` in the chroot.
 */
export function importedSourcePackageOf(server: BenchServer, chrootDsc: string): PreparedArtifact {
  const [artifact] = preparedArtifacts(server, 'prepare_dsc_for_upload', chrootDsc);
  if (!artifact) throw new Error(`prepare_dsc_for_upload made nothing of ${chrootDsc}`);
  return artifact;
}

/** What one of the Debusine client's `prepare_*_for_upload` functions makes of a file. */
function preparedArtifacts(
  server: BenchServer,
  prepare: 'prepare_changes_for_upload' | 'prepare_dsc_for_upload',
  chrootPath: string,
): PreparedArtifact[] {
  const script = [
    'import json, sys',
    'from pathlib import Path',
    `from debusine.client.client_utils import ${prepare} as prepare`,
    'made = prepare(Path(sys.argv[1]))',
    'out = []',
    'for a in made if isinstance(made, list) else [made]:',
    '    data = a.data.model_dump(mode="json") if hasattr(a.data, "model_dump") else a.data',
    '    out.append({"category": str(getattr(a.category, "value", a.category)), "data": data,',
    '                "files": {k: str(v) for k, v in a.files.items()}})',
    'print(json.dumps(out))',
  ].join('\n');
  const out = execFileSync(
    'chroot',
    [server.root, '/usr/bin/env', '-i', 'LANG=C.UTF-8', 'python3', '-c', script, chrootPath],
    { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
  );
  return (JSON.parse(out) as PreparedArtifact[]).map((a) => ({
    ...a,
    files: Object.fromEntries(
      Object.entries(a.files).map(([name, path]) => [name, join(server.root, path)]),
    ),
  }));
}

/**
 * dput-ng's requests, sent with OpenSSL and curl: one `openssl dgst` for every file, then
 * each artifact created and its files PUT (`parallel` at a time) in dput-ng's order, then
 * an `extends` and a `relates-to` relation from the upload to each of the others. The same
 * server state as dput-ng and the app make, at the speed of raw HTTP.
 */
export async function curlUploadAsDput(
  server: BenchServer,
  workspace: string,
  artifacts: PreparedArtifact[],
  options: CurlUploadOptions,
): Promise<void> {
  const paths = [...new Set(artifacts.flatMap((a) => Object.values(a.files)))];
  const digests = await opensslDeclare(Object.fromEntries(paths.map((p) => [p, p])));
  const ids: number[] = [];
  for (const artifact of artifacts) {
    const files = Object.fromEntries(
      Object.entries(artifact.files).map(([name, path]) => [name, digests[path]]),
    );
    const decls: Record<string, FileDecl> = {};
    for (const [name, file] of Object.entries(files)) {
      if (!file) throw new Error(`no digest for ${name}`);
      decls[name] = file.decl;
    }
    const { id, filesToUpload } = await createArtifactRaw(server, decls, {
      category: artifact.category,
      data: artifact.data,
      workspace,
    });
    await curlPutAll(server, id, filesToUpload, files, options);
    ids.push(id);
  }
  const [upload, ...others] = ids;
  for (const target of others) {
    for (const type of ['extends', 'relates-to']) {
      await postJson(
        server,
        '/1.0/artifact-relation/',
        { artifact: upload, target, type },
        `relating ${String(upload)} to ${String(target)}`,
      );
    }
  }
}

/** `debusine artifact create --upload …` in the chroot: hashing, creation and upload. */
export function cliUpload(
  server: BenchServer,
  chrootPaths: string[],
  category = BENCH_CATEGORY,
): number {
  const out = runCli(server, [
    'artifact',
    'create',
    '--yaml',
    '-w',
    server.workspace,
    '--upload',
    ...chrootPaths,
    '--',
    category,
  ]);
  const match = /artifact_id:\s*(\d+)/.exec(out) ?? /\bid:\s*(\d+)/.exec(out);
  if (!match?.[1]) throw new Error(`cannot read the artifact id from the CLI's output:\n${out}`);
  return Number(match[1]);
}

export function cliImportDsc(server: BenchServer, chrootDsc: string): void {
  runCli(server, ['artifact', 'import-debian', '-w', server.workspace, chrootDsc]);
}

export function cliDownload(
  server: BenchServer,
  id: number,
  chrootDir: string,
  tarball: boolean,
): void {
  runCli(server, [
    'artifact',
    'download',
    ...(tarball ? ['--tarball'] : []),
    '--target-directory',
    chrootDir,
    String(id),
  ]);
}

export function cliList(server: BenchServer, limit: number): string {
  return runCli(server, ['work-request', 'list', '--yaml', '--limit', String(limit)]);
}

export async function curlDownloadExtract(
  server: BenchServer,
  url: string,
  dir: string,
): Promise<void> {
  await exec(
    'bash',
    ['-o', 'pipefail', '-c', 'curl -sSf -H "Token: $TOKEN" "$URL" | tar -xz -C "$DIR"'],
    {
      env: { ...process.env, TOKEN: server.token, URL: url, DIR: dir },
    },
  );
}

export async function curlDownload(server: BenchServer, url: string, file: string): Promise<void> {
  await exec('curl', ['-sSf', '-H', `Token: ${server.token}`, '-o', file, url]);
}

export async function opensslSha256(file: string): Promise<void> {
  await exec('openssl', ['dgst', '-sha256', file]);
}

/**
 * dput-ng (the Debusine uploader of debusine-client) in the server's chroot, as alice, with
 * a profile of the bench's own: the sandbox's, less the hooks that check and start a
 * workflow (the app is timed without starting one either). It makes what the app makes:
 * the upload, its source and binary packages, and the relations.
 */
export function dputUpload(server: BenchServer, chrootChanges: string, workspace: string): void {
  writeDputProfile(server.root, 'ddt-bench', uploadOnlyProfile(server.scope, workspace));
  dputAsAlice(server.root, 'ddt-bench', chrootChanges);
}
