/**
 * What the local files of an artifact must be before anything is sent: each file that a
 * .changes or .dsc of the artifact lists has the size and every checksum listed for it
 * (Files' md5, Checksums-Sha1, -Sha256, -Sha512), and each .deb/.udeb of a Debian package
 * kind is a whole package. The server checks none of this: it would store an upload whose
 * .changes lies about its files.
 *
 * The builders run these checks when files are dropped (so that the problem shows next to
 * the file) and the create request runs them again (a file may have changed since). Each
 * file is hashed in one pass, for the SHA-256 the upload declares and the algorithms its
 * control files list, and digest-cache.ts remembers that pass so the second run does not
 * read an unchanged file again.
 */
import { basename } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import type { FileDigests } from '../hashing/checksums';
import { checkDebStructure } from '../formats/deb-archive';
import { readChanges, readDsc, type ParsedControlFile } from './debian-files';
import { digestFile } from '../hashing/digest-cache';
import type { ListedChecksum } from '../formats/file-lists';
import { kindOfCategory, type KindName } from './kind-data';
import type { LocalArtifact } from './local-artifact';

interface Expectation extends ListedChecksum {
  /** The control file's name, and its extension for messages (`.dsc`). */
  control: string;
  suffix: string;
}

interface Problem {
  rule: string;
  message: string;
  file: string;
  [detail: string]: unknown;
}

const STRENGTH: readonly ListedChecksum['algorithm'][] = ['sha512', 'sha256', 'sha1', 'md5'];
const DEB_KINDS: readonly KindName[] = ['binaryPackage', 'binaryPackages', 'upload'];

interface ControlFile {
  path: string;
  parsed: ParsedControlFile;
  /** The field of the artifact's data that holds this file's fields, if any. */
  dataField?: string;
}

/** The artifact's control files, parsed. */
async function controlFiles(
  kind: KindName | undefined,
  artifact: LocalArtifact,
): Promise<ControlFile[]> {
  const out: ControlFile[] = [];
  for (const [name, local] of artifact.files) {
    if (kind === 'upload' && name.endsWith('.changes')) {
      out.push({ path: local, parsed: await readChanges(local), dataField: 'changes_fields' });
    } else if (name.endsWith('.dsc') && (kind === 'upload' || kind === 'sourcePackage')) {
      const parsed = await readDsc(local);
      out.push(
        kind === 'sourcePackage'
          ? { path: local, parsed, dataField: 'dsc_fields' }
          : { path: local, parsed },
      );
    }
  }
  return out;
}

/** What is wrong with one file against one entry, or undefined when they agree. */
function compare(
  e: Expectation,
  found: FileDigests,
): { rule: string; message: string } | undefined {
  const where = `${e.control} line ${String(e.line)} (${e.field}): ${e.name}`;
  if (found.size !== e.size) {
    return {
      rule: 'listed-file.size',
      message: `${where} is ${String(found.size)} bytes, the ${e.suffix} lists ${String(e.size)}`,
    };
  }
  const digest = found.digests[e.algorithm];
  if (digest === e.digest) return undefined;
  return {
    rule: 'listed-file.checksum',
    message: `${where} has ${e.algorithm} ${String(digest)}, the ${e.suffix} lists ${e.digest}`,
  };
}

/** One problem per file: its first failing entry, and where the others are. */
function fileProblem(
  local: string,
  listed: Expectation[],
  found: FileDigests,
): Problem | undefined {
  const failed = listed.flatMap((e) => {
    const wrong = compare(e, found);
    return wrong ? [{ e, ...wrong }] : [];
  });
  // The strongest checksum first: it is the one that says the file is not the listed one.
  failed.sort((a, b) => STRENGTH.indexOf(a.e.algorithm) - STRENGTH.indexOf(b.e.algorithm));
  const [first, ...others] = failed;
  if (!first) return undefined;
  const more = others.map(({ e }) => `${e.control} line ${String(e.line)} (${e.field})`);
  return {
    rule: first.rule,
    message: more.length
      ? `${first.message}; ${more.join(', ')} disagree${more.length === 1 ? 's' : ''} too`
      : first.message,
    file: local,
    controlFile: first.e.control,
    line: first.e.line,
    field: first.e.field,
  };
}

/**
 * Runs the checks; returns the digests it computed, by path in the artifact (every local
 * file's with `everyFile`, else only the listed files'). Throws one validation error that
 * names every file found wrong (`details.problems`, one per file).
 */
export async function checkLocalFiles(
  artifact: LocalArtifact,
  options: { everyFile?: boolean; signal?: AbortSignal } = {},
): Promise<Map<string, FileDigests>> {
  const kind = kindOfCategory(artifact.category);
  const expected = new Map<string, Expectation[]>();
  const problems: Problem[] = [];
  for (const { path, parsed, dataField } of await controlFiles(kind, artifact)) {
    const control = basename(path);
    if (dataField && JSON.stringify(artifact.data[dataField]) !== JSON.stringify(parsed.fields)) {
      problems.push({
        rule: 'control-file-changed',
        message: `${control} is not the one the artifact was built from (its ${dataField} differ): it changed since; drop it again`,
        file: path,
      });
    }
    for (const entry of parsed.checksums) {
      const list = expected.get(entry.name) ?? [];
      list.push({ ...entry, control, suffix: control.slice(control.lastIndexOf('.')) });
      expected.set(entry.name, list);
    }
  }
  const digests = new Map<string, FileDigests>();
  for (const [name, local] of [...artifact.files].sort(([a], [b]) => a.localeCompare(b))) {
    if (kind && DEB_KINDS.includes(kind) && /\.u?deb$/.test(name)) {
      await checkDebStructure(local).catch((error: unknown) => {
        const e =
          error instanceof DebusineError ? error : new DebusineError('internal', String(error));
        problems.push({ rule: e.details.rule ?? e.code, message: e.message, file: local });
      });
    }
    const listed = expected.get(name) ?? [];
    if (listed.length === 0 && !options.everyFile) continue;
    const algorithms = [...new Set(['sha256', ...listed.map((e) => e.algorithm)])];
    // Remembered when listed: the create request will want its SHA-256 again.
    const found = await digestFile(local, algorithms, {
      signal: options.signal,
      remember: listed.length > 0,
    });
    digests.set(name, found);
    const problem = fileProblem(local, listed, found);
    if (problem) problems.push(problem);
  }
  const [first] = problems;
  if (first) {
    const message =
      problems.length === 1
        ? first.message
        : `${String(problems.length)} files are not what they should be: ${problems.map((p) => p.message).join('; ')}`;
    const details: Record<string, unknown> = { ...first, problems };
    delete details.message;
    throw new DebusineError('validation', message, details);
  }
  return digests;
}
