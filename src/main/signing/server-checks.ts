/**
 * What the server sends for external signing, checked before anything of it reaches
 * debsign: the step must still wait, the unsigned upload's names must be Debian file
 * names, and its .changes must name only such files, all of them in the upload with the
 * checksums it has. debsign reads the names a .changes lists into shell `eval` and Perl
 * code: a hostile name there runs as a program, with the user's key at hand
 * (signing-debsign.test.ts shows the real debsign running one).
 */
import { basename } from 'node:path';
import {
  fieldString,
  parseControlFileText,
  readTextFile,
  type ParsedControlFile,
} from '../artifacts/local/debian-files';
import type { ArtifactResponse, WorkRequestResponse } from '../../shared/models';
import { DebusineError } from '../../shared/errors';

/** Only these files are fetched and signed; the others stay on the server. */
export const SIGNED_KINDS = /\.(?:changes|dsc|buildinfo)$/;
/**
 * The characters of Debian's file names (package, version, architecture): nothing a
 * shell, Perl or debsign's sed would read as syntax, and no option or path.
 */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9.+~_-]*$/;
/** How debsign finds the .dsc and .buildinfo in the .changes (derive_childfile). */
const CHILD_LINE = /[ \t]([^ ]*\.(?:dsc|buildinfo))$/;

export function refused(
  message: string,
  rule: string,
  more: Record<string, unknown> = {},
): DebusineError {
  return new DebusineError('bad-response', `${message}; nothing was signed or uploaded.`, {
    operation: 'signAndComplete',
    rule,
    ...more,
  });
}

/** The step must still wait for a signature: the server says so, and it is checked all the same. */
export function unsignedIdOf(step: WorkRequestResponse, workRequestId: number): number {
  const id = String(workRequestId);
  if (
    step.id !== workRequestId ||
    step.task_type !== 'Wait' ||
    step.task_name !== 'externaldebsign'
  ) {
    throw refused(
      `Work request ${id} is not a step that waits for a signature`,
      'signing.not-debsign',
    );
  }
  if (step.status !== 'running') {
    throw new DebusineError(
      'conflict',
      `Work request ${id} no longer waits for a signature (it is ${step.status}); nothing was signed.`,
      { operation: 'signAndComplete', rule: 'signing.not-waiting' },
    );
  }
  const unsignedId = step.dynamic_task_data?.unsigned_id;
  if (typeof unsignedId !== 'number' || !Number.isSafeInteger(unsignedId) || unsignedId <= 0) {
    throw refused(`Work request ${id} names no unsigned upload`, 'signing.no-unsigned', {
      field: 'dynamic_task_data.unsigned_id',
    });
  }
  return unsignedId;
}

/**
 * The unsigned upload must be the one the step names, an upload, of the workflow's own
 * workspace. The step names it twice: `task_data.unsigned` (what the workflow asked for,
 * which the server's own pages show) and `dynamic_task_data.unsigned_id` (what it resolved
 * to, which the server compares the signed upload with); where both are ids they must
 * agree, or the user could be shown one artifact and sign another.
 */
export function checkUnsigned(step: WorkRequestResponse, unsigned: ArtifactResponse): void {
  const id = String(step.id);
  const named = step.task_data.unsigned;
  if (typeof named === 'number' && named !== unsigned.id) {
    throw refused(
      `Work request ${id} names two uploads to sign: artifact ${String(named)} in its task data ` +
        `and artifact ${String(unsigned.id)} in its dynamic data`,
      'signing.unsigned-mismatch',
      { field: 'task_data.unsigned' },
    );
  }
  if (unsigned.id !== step.dynamic_task_data?.unsigned_id) {
    throw refused(
      `The server answered artifact ${String(unsigned.id)} for the upload of work request ${id}`,
      'signing.unsigned-mismatch',
    );
  }
  if (unsigned.category !== 'debian:upload') {
    throw refused(
      `Artifact ${String(unsigned.id)} is a ${JSON.stringify(unsigned.category).slice(0, 100)}, ` +
        'not an upload (debian:upload)',
      'signing.not-upload',
      { category: unsigned.category.slice(0, 100) },
    );
  }
  if (unsigned.workspace !== step.workspace) {
    throw refused(
      `Artifact ${String(unsigned.id)} is in workspace ${JSON.stringify(unsigned.workspace).slice(0, 100)}, ` +
        `not in the workflow's (${JSON.stringify(step.workspace).slice(0, 100)})`,
      'signing.other-workspace',
    );
  }
}

/** The names to fetch: safe ones only, and exactly one .changes, as upload artifacts have. */
export function filesToSign(unsigned: ArtifactResponse): { names: string[]; changes: string } {
  const names = Object.keys(unsigned.files).filter((n) => SIGNED_KINDS.test(n));
  for (const name of names) {
    if (!SAFE_NAME.test(name)) {
      throw refused(
        `Artifact ${String(unsigned.id)} has a file named ${JSON.stringify(name)}`,
        'signing.file-name',
        {
          file: name,
        },
      );
    }
  }
  const changes = names.filter((n) => n.endsWith('.changes'));
  const [only] = changes;
  if (only === undefined || changes.length !== 1) {
    throw refused(
      `Artifact ${String(unsigned.id)} holds ${String(changes.length)} .changes files, not one`,
      'signing.changes-count',
    );
  }
  return { names, changes: only };
}

/**
 * The downloaded .changes, checked before debsign reads it: every name debsign would take
 * from it is a safe one; every file it lists is in the unsigned artifact (the server
 * refuses a signed upload with more paths), with the checksum the artifact has (the signed
 * upload names the files it does not send, which the server must have).
 */
export async function checkChanges(
  changesFile: string,
  unsigned: ArtifactResponse,
): Promise<{
  text: string;
  parsed: ParsedControlFile;
  changedBy?: string | undefined;
  maintainer?: string | undefined;
}> {
  const text = await readTextFile(changesFile);
  for (const line of text.split('\n')) {
    const name = CHILD_LINE.exec(line)?.[1];
    if (name !== undefined && !SAFE_NAME.test(name)) {
      throw refused(`The .changes names a file ${JSON.stringify(name)}`, 'signing.listed-name', {
        file: name,
      });
    }
  }
  // Parsed from the text just read: the file is read once for the checks and the review.
  const parsed = parseControlFileText('changes', text, basename(changesFile));
  for (const entry of parsed.sha256) {
    const file = unsigned.files[entry.name];
    if (!SAFE_NAME.test(entry.name) || !file) {
      throw refused(
        `The .changes lists ${JSON.stringify(entry.name)}, which artifact ${String(unsigned.id)} does not hold`,
        'signing.listed-missing',
        { file: entry.name },
      );
    }
    // The .dsc and .buildinfo too: debsign re-signs them and writes their new checksums
    // into the .changes, so a mismatch here would be signed over, not noticed.
    const declared = file.checksums.sha256;
    if (declared === undefined || declared !== entry.sha256) {
      throw refused(
        `The .changes and artifact ${String(unsigned.id)} disagree on the checksum of ${entry.name}`,
        'signing.listed-checksum',
        { file: entry.name },
      );
    }
  }
  return {
    text,
    parsed,
    changedBy: fieldString(parsed.fields, 'Changed-By'),
    maintainer: fieldString(parsed.fields, 'Maintainer'),
  };
}
