/**
 * Content types of files in an artifact. The Python client asks libmagic; libmagic is not
 * available to this app, so we use the Debusine client's fixed rules (see
 * docs/debusine-server-facts.md) and then a
 * table of extensions, falling back to `application/octet-stream`. The server sanitises
 * the type when it serves the file, so a coarse guess is harmless.
 */
import { baseName } from '../../../shared/base-name';

const TEXT = 'text/plain; charset=utf-8';

/** The Debusine client's fixed rules: these names always get this type. */
const FIXED: readonly [RegExp, string][] = [
  [/\.(buildinfo|dsc|changes)$/, TEXT],
  [/\.md$/, 'text/markdown; charset=utf-8'],
];

/** Longest suffix first, so that `.tar.xz` wins over `.xz`. */
const EXTENSIONS: readonly [string, string][] = [
  ['.tar.gz', 'application/gzip; charset=binary'],
  ['.tar.xz', 'application/x-xz; charset=binary'],
  ['.tar.zst', 'application/zstd; charset=binary'],
  ['.tar.bz2', 'application/x-bzip2; charset=binary'],
  ['.tgz', 'application/gzip; charset=binary'],
  ['.gz', 'application/gzip; charset=binary'],
  ['.xz', 'application/x-xz; charset=binary'],
  ['.zst', 'application/zstd; charset=binary'],
  ['.bz2', 'application/x-bzip2; charset=binary'],
  ['.lzma', 'application/x-lzma; charset=binary'],
  ['.tar', 'application/x-tar; charset=binary'],
  ['.deb', 'application/vnd.debian.binary-package; charset=binary'],
  ['.udeb', 'application/vnd.debian.binary-package; charset=binary'],
  ['.ddeb', 'application/vnd.debian.binary-package; charset=binary'],
  ['.qcow2', 'application/octet-stream'],
  ['.json', 'application/json; charset=utf-8'],
  ['.asc', 'application/pgp-signature'],
  ['.sig', 'application/pgp-signature'],
  ['.build', TEXT],
  ['.buildlog', TEXT],
  ['.log', TEXT],
  ['.txt', TEXT],
  ['.diff', 'text/x-diff; charset=utf-8'],
  ['.patch', 'text/x-diff; charset=utf-8'],
  ['.sources', TEXT],
  ['.html', 'text/html; charset=utf-8'],
  ['.xml', 'text/xml; charset=utf-8'],
  ['.yaml', 'text/plain; charset=utf-8'],
  ['.yml', 'text/plain; charset=utf-8'],
];

export const TEXT_PLAIN = TEXT;
export const OCTET_STREAM = 'application/octet-stream';

export function guessContentType(pathInArtifact: string): string {
  const name = pathInArtifact.toLowerCase();
  for (const [pattern, type] of FIXED) if (pattern.test(name)) return type;
  for (const [suffix, type] of EXTENSIONS) if (name.endsWith(suffix)) return type;
  // Well-known text files with no extension (Packages, Release, InRelease...).
  const base = baseName(name);
  if (/^(packages|sources|release|inrelease|readme|changelog|copyright)$/.test(base)) return TEXT;
  return OCTET_STREAM;
}
