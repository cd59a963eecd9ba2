/**
 * The artifact's file list, checked before anything is downloaded: every path is a
 * relative path inside the artifact, no file is also a folder of another, every file has a
 * SHA-256 to be checked against, and every URL is an http(s) URL. What comes out is all a
 * download trusts: paths, sizes and hashes.
 *
 * A file without a SHA-256 is refused rather than downloaded unchecked: both server
 * revisions the app speaks (0.11 and 0.16) send `checksums.sha256` for every file, since
 * the server refuses to create a file without one and stores no other algorithm. A file
 * list without it is therefore not from an honest server.
 */
import { DebusineError } from '../../../shared/errors';
import type { ArtifactResponse } from '../../../shared/models';
import { urlText } from '../../../shared/url-text';
import { artifactPathProblem, quotePath } from '../formats/artifact-paths';
import { badPath, downloadError } from './download-errors';

export interface DeclaredFile {
  path: string;
  size: number;
  sha256: string;
  url: string;
}

export interface DeclaredFiles {
  artifact: number;
  files: Map<string, DeclaredFile>;
  /** Every folder the declared paths imply (`a`, `a/b` for `a/b/c.txt`). */
  folders: Set<string>;
  /** The sum of the declared sizes. */
  total: number;
  /** Files the server still waits for (`files_to_upload`): its tarball leaves them out. */
  pending: Set<string>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Refuses a URL that is not plain http(s) (no other scheme, no credentials in it). A
 * relative URL is taken as the server's own, as it is when fetched. `redirect`: the URL is
 * where the server redirected the download, not one the artifact lists, and the refusal
 * says so. The refusal quotes the URL without its user name and password (urlText): they
 * are what it refuses, and a message is shown and copied.
 */
export function checkDownloadUrl(
  artifact: number,
  url: string,
  file?: string,
  redirect = false,
): URL {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url, 'http://server.invalid/');
  } catch {
    parsed = undefined;
  }
  const plain = parsed !== undefined && ['http:', 'https:'].includes(parsed.protocol);
  if (!parsed || !plain || parsed.username !== '' || parsed.password !== '') {
    const what = file === undefined ? 'its archive' : `its file ${quotePath(file)}`;
    const where = redirect
      ? `the server redirected the download of ${what} to ${JSON.stringify(urlText(url))}`
      : `${what} has the URL ${JSON.stringify(urlText(url))}`;
    const why = plain ? 'which carries a user name or password' : 'which is not an http(s) URL';
    throw downloadError(
      'bad-response',
      { artifact, ...(file === undefined ? {} : { file }) },
      'artifact-url',
      `Artifact ${String(artifact)} was refused: ${where}, ${why}`,
    );
  }
  return parsed;
}

function checkedFile(artifact: ArtifactResponse, path: string): DeclaredFile {
  const file = artifact.files[path];
  if (!file) throw new DebusineError('internal', `${path} is not a file of the artifact`);
  const problem = artifactPathProblem(path);
  if (problem) throw badPath(artifact.id, path, problem);
  const sha256 = file.checksums.sha256?.toLowerCase();
  if (sha256 === undefined || !SHA256.test(sha256)) {
    const what = sha256 === undefined ? 'no SHA-256' : 'a SHA-256 that is not 64 hex digits';
    throw downloadError(
      'bad-response',
      { artifact: artifact.id, file: path },
      'download-unverifiable',
      `${path} of artifact ${String(artifact.id)} was refused: the server lists it with ${what}, so its download could not be verified`,
    );
  }
  checkDownloadUrl(artifact.id, file.url, path);
  return { path, size: file.size, sha256, url: file.url };
}

/** One file of the artifact, checked; undefined when the artifact has no such file. */
export function declaredFile(artifact: ArtifactResponse, path: string): DeclaredFile | undefined {
  return Object.hasOwn(artifact.files, path) ? checkedFile(artifact, path) : undefined;
}

/** Every file of the artifact, checked, or the first reason to refuse the artifact. */
export function declaredFiles(artifact: ArtifactResponse): DeclaredFiles {
  const files = new Map<string, DeclaredFile>();
  const folders = new Set<string>();
  let total = 0;
  for (const path of Object.keys(artifact.files)) {
    const file = checkedFile(artifact, path);
    files.set(path, file);
    total += file.size;
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
  }
  for (const folder of folders) {
    if (files.has(folder)) {
      throw badPath(artifact.id, folder, 'is a file, and also the folder of other files');
    }
  }
  checkDownloadUrl(artifact.id, artifact.download_tar_gz_url);
  return {
    artifact: artifact.id,
    files,
    folders,
    total,
    pending: new Set(artifact.files_to_upload),
  };
}
