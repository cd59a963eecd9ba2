/**
 * The one check a path from a server passes before it names anything on disk: an artifact
 * file name, an archive member. A server is not trusted to send only the paths its own
 * uploads could have created, so each one must be a plain relative path that stays inside
 * the folder it is joined to, on every platform the app runs on.
 */
import { join } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import { visibleText } from '../../../shared/visible-text';

/** One segment: the longest file name Linux, macOS and Windows file systems accept. */
export const MAX_SEGMENT_BYTES = 255;
/**
 * A whole path. Real artifacts hold package file names and short log paths; 1024 bytes
 * leaves room for those while keeping the destination plus the path under the 4096 bytes
 * Linux accepts for a path.
 */
export const MAX_PATH_BYTES = 1024;

/**
 * Why `path` is not a relative path inside an artifact, or undefined when it is. A valid
 * path is `/`-separated segments, each non-empty, not `.` or `..`, without NUL or other
 * control characters, backslashes (a separator on Windows), or a leading drive letter.
 */
export function artifactPathProblem(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
    return `is longer than ${String(MAX_PATH_BYTES)} bytes`;
  }
  if (path.includes('\0')) return 'contains a NUL byte';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\x01-\x1f\x7f]/.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/')) return 'is an absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      return `has a segment longer than ${String(MAX_SEGMENT_BYTES)} bytes`;
    }
  }
  return undefined;
}

/** A path for messages: quoted, and cut short when a hostile one is very long. */
export function quotePath(path: string): string {
  // JSON escapes control characters, not the format ones (a right-to-left override).
  const quoted = visibleText(JSON.stringify(path));
  return quoted.length > 160
    ? `${quoted.slice(0, 150)}…" (${String(path.length)} characters)`
    : quoted;
}

/**
 * Where an artifact path lives under `root`. Only a path that passed `artifactPathProblem`
 * may come here; anything else is a programming error, refused rather than joined.
 */
export function localPath(root: string, path: string): string {
  const problem = artifactPathProblem(path);
  if (problem) {
    throw new DebusineError('internal', `Unchecked artifact path ${quotePath(path)}: ${problem}`);
  }
  return join(root, ...path.split('/'));
}
