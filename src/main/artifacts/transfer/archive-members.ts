/**
 * Which members an artifact's tarball may hold: each of the artifact's declared files,
 * once, as a regular file of exactly its declared size, under a name that is a relative
 * path inside the artifact; and folders only where the declared paths imply them. Links,
 * devices and anything else are refused: an artifact is a set of files, and a link in it
 * could only serve to make a later member land somewhere else.
 */
import { artifactPathProblem, quotePath } from '../formats/artifact-paths';
import type { DeclaredFile, DeclaredFiles } from './declared-files';
import { badMember, wrongSize } from './download-errors';
import type { TarEntry } from '../formats/tar-stream';

/**
 * Admits a member before any of its content is read: the declared file it is, undefined
 * for a folder the declared paths imply, or a refusal (thrown) naming it. `seen` collects
 * the files admitted so far.
 */
export function admitMember(
  entry: TarEntry,
  declared: DeclaredFiles,
  seen: Set<string>,
): DeclaredFile | undefined {
  const id = declared.artifact;
  const folder = entry.type === 'directory';
  const name = folder ? entry.name.replace(/\/$/, '') : entry.name;
  const problem = artifactPathProblem(name);
  if (problem) throw badMember(id, entry.name, problem, 'archive-path');
  if (entry.type === 'symlink' || entry.type === 'hardlink') {
    const kind = entry.type === 'symlink' ? 'a symbolic' : 'a hard';
    const to = quotePath(entry.linkname);
    const why = `is ${kind} link (to ${to}); an artifact holds only files`;
    throw badMember(id, name, why, 'archive-link');
  }
  if (entry.type === 'other') {
    const why = `has a type an artifact cannot hold (tar type ${JSON.stringify(entry.typeflag)})`;
    throw badMember(id, name, why, 'archive-entry-type');
  }
  if (folder) {
    if (declared.files.has(name)) {
      const why = 'is a folder, but the artifact declares a file there';
      throw badMember(id, name, why, 'archive-entry-type');
    }
    if (!declared.folders.has(name)) {
      throw badMember(id, name, 'is a folder the artifact does not declare', 'archive-undeclared');
    }
    return undefined;
  }
  const file = declared.files.get(name);
  if (!file) throw badMember(id, name, 'is not a file the artifact declares', 'archive-undeclared');
  if (seen.has(name)) throw badMember(id, name, 'appears twice', 'archive-duplicate');
  seen.add(name);
  if (entry.size !== file.size) {
    throw wrongSize({ artifact: id, file: name }, file.size, entry.size, 'the archive');
  }
  return file;
}
