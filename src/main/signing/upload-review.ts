/**
 * What the user's key would sign, compared with what the user uploaded from this machine
 * (uploads-made.ts). A workflow's signing step names an upload the server made (for a
 * source upload, `dpkg-genchanges -S -sa` run on the source package the user sent), so its
 * .changes is new text, but its Source, Version and Distribution, its .dsc and every file
 * the .dsc lists are the user's own. Anything else (another package or version, another
 * suite, other contents, a tarball the upload does not hold, an upload this app did not
 * make) is shown to the user field by field and file by file, and signs only once the user
 * confirmed exactly this review: its digest covers the artifact and the bytes of its .dsc
 * and .changes.
 */
import { createHash } from 'node:crypto';
import type { ArtifactResponse } from '../../shared/models';
import type {
  SigningReview,
  SigningReviewField,
  SigningReviewFile,
} from '../../shared/contract-types';
import { boundedText } from '../../shared/shown-text';
import { visibleText } from '../../shared/visible-text';
import { fieldString, type ParsedControlFile } from '../artifacts/local/debian-files';
import type { UploadMade } from './uploads-made';

/** The .changes text the page shows: real ones are a few KiB. */
export const CHANGES_PREVIEW_LIMIT = 256 * 1024;
/** Files listed in a review: more are summed up in one line. */
const FILES_SHOWN = 500;
const FIELD_SHOWN = 300;

export interface UnsignedUpload {
  artifact: ArtifactResponse;
  changesName: string;
  changesText: string;
  changes: ParsedControlFile;
  /** The .dsc it holds, when it is a source upload. */
  dsc: { name: string; bytes: Buffer; parsed: ParsedControlFile } | null;
}

function sha256Of(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function shown(value: string | undefined): string {
  return value === undefined ? '' : boundedText(value, FIELD_SHOWN);
}

const COMPARED = ['Source', 'Version', 'Distribution'] as const;
const SHOWN_ONLY = ['Architecture', 'Changed-By', 'Maintainer'] as const;

function recordedField(made: UploadMade, name: (typeof COMPARED)[number]): string {
  if (name === 'Source') return made.source;
  if (name === 'Version') return made.version;
  return made.distribution;
}

interface Listed {
  name: string;
  listedBy: ('.changes' | '.dsc')[];
  dscSha256: string | undefined;
}

/** The files of the .changes and of the .dsc, once each, in the order they are listed. */
function listedFiles(upload: UnsignedUpload): Listed[] {
  const byName = new Map<string, Listed>();
  const add = (name: string, by: '.changes' | '.dsc', sha256?: string) => {
    const entry = byName.get(name) ?? { name, listedBy: [], dscSha256: undefined };
    if (!entry.listedBy.includes(by)) entry.listedBy.push(by);
    if (by === '.dsc') entry.dscSha256 = sha256;
    byName.set(name, entry);
  };
  for (const f of upload.changes.sha256) add(f.name, '.changes');
  for (const f of upload.dsc?.parsed.sha256 ?? []) add(f.name, '.dsc', f.sha256);
  return [...byName.values()];
}

function compare(
  upload: UnsignedUpload,
  made: UploadMade | null,
): { fields: SigningReviewField[]; files: SigningReviewFile[]; differences: string[] } {
  const fieldsOf = upload.changes.fields;
  const differences: string[] = [];
  const fields: SigningReviewField[] = [];
  for (const name of COMPARED) {
    const value = fieldString(fieldsOf, name) ?? '';
    const recorded = made ? recordedField(made, name) : null;
    const differs = recorded !== null && recorded !== value;
    if (differs) {
      differences.push(
        `${name}: you uploaded “${shown(recorded)}”, this upload has “${shown(value)}”.`,
      );
    }
    fields.push({
      name,
      value: shown(value),
      made: recorded === null ? null : shown(recorded),
      differs,
    });
  }
  for (const name of SHOWN_ONLY) {
    fields.push({ name, value: shown(fieldString(fieldsOf, name)), made: null, differs: false });
  }
  const files: SigningReviewFile[] = [];
  for (const entry of listedFiles(upload)) {
    const held = upload.artifact.files[entry.name];
    const sha256 = held?.checksums.sha256 ?? null;
    const recorded = made?.files[entry.name] ?? null;
    let state: SigningReviewFile['state'];
    const name = shown(entry.name);
    if (!held) {
      state = 'not-in-this-upload';
      differences.push(`${name}: the .dsc lists it, but the upload does not hold it.`);
    } else if (entry.dscSha256 !== undefined && entry.dscSha256 !== sha256) {
      state = 'changed';
      differences.push(`${name}: the upload holds other contents than its .dsc lists.`);
    } else if (!made) {
      state = 'unknown';
    } else if (recorded === null) {
      state = 'not-in-your-upload';
      differences.push(`${name}: not in the upload you made.`);
    } else if (recorded !== sha256) {
      state = 'changed';
      differences.push(`${name}: other contents than the file you uploaded (SHA-256 differs).`);
    } else {
      state = 'same';
    }
    files.push({
      name,
      sha256: sha256 ?? entry.dscSha256 ?? null,
      size: held?.size ?? null,
      listedBy: entry.listedBy,
      state,
      made: recorded,
    });
  }
  return { fields, files, differences };
}

function digestOf(upload: UnsignedUpload): string {
  const files = Object.entries(upload.artifact.files)
    .map(([name, f]) => [name, f.checksums.sha256 ?? '', String(f.size)])
    .sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''));
  return sha256Of(
    JSON.stringify({
      artifact: upload.artifact.id,
      workspace: upload.artifact.workspace,
      category: upload.artifact.category,
      files,
      changes: sha256Of(upload.changesText),
      dsc: upload.dsc ? sha256Of(upload.dsc.bytes) : null,
    }),
  );
}

function dateOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? shown(iso)
    : date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/**
 * The review of `upload` against the uploads of its source this app made on its server
 * (`made`, newest first): of those of its version, the one with the fewest differences,
 * the newest of those; else the newest of any version.
 */
export function reviewUpload(upload: UnsignedUpload, made: readonly UploadMade[]): SigningReview {
  const version = fieldString(upload.changes.fields, 'Version');
  // Another version of a source uploaded here is compared with the newest one made, so
  // that the user reads "you uploaded 1.0", not only "not made here".
  const sameVersion = made.filter((m) => m.version === version);
  const candidates = sameVersion.length > 0 ? sameVersion : made.slice(0, 1);
  let best: { made: UploadMade | null; result: ReturnType<typeof compare> } = {
    made: null,
    result: compare(upload, null),
  };
  for (const candidate of candidates) {
    const result = compare(upload, candidate);
    if (best.made === null || result.differences.length < best.result.differences.length) {
      best = { made: candidate, result };
    }
  }
  const { fields, files, differences } = best.result;
  const source = shown(fieldString(upload.changes.fields, 'Source'));
  const what = `${source} ${shown(version)}`;
  let verdict: SigningReview['verdict'];
  let summary: string;
  if (best.made === null) {
    verdict = 'not-made-here';
    summary =
      `This app did not upload ${what} to this server: it may come from dput in a shell or ` +
      'another machine. Read its fields and files before you sign it.';
    // Inconsistencies within the upload itself are differences even without a record.
    if (differences.length > 0) summary += ` ${String(differences.length)} problem(s) found.`;
  } else if (differences.length === 0) {
    verdict = 'same';
    summary = `This is the upload you made from this machine on ${dateOf(best.made.madeAt)} (artifact ${String(best.made.artifactId)}).`;
  } else {
    verdict = 'differs';
    summary =
      `This is not the upload of ${what} you made from this machine on ${dateOf(best.made.madeAt)}: ` +
      `${String(differences.length)} difference(s). Read them before you sign.`;
  }
  const shownFiles = files.slice(0, FILES_SHOWN);
  if (files.length > FILES_SHOWN) {
    differences.push(`${String(files.length - FILES_SHOWN)} more files are not listed here.`);
  }
  const truncated = upload.changesText.length > CHANGES_PREVIEW_LIMIT;
  return {
    artifactId: upload.artifact.id,
    workspace: shown(upload.artifact.workspace),
    verdict,
    summary,
    made: best.made
      ? {
          at: best.made.madeAt,
          artifactId: best.made.artifactId,
          workspace: best.made.workspace,
          workflowId: best.made.workflowId,
        }
      : null,
    fields,
    files: shownFiles,
    differences,
    changes: {
      name: shown(upload.changesName),
      // As it is, but for characters that would not show (a bidi override, a control).
      text: visibleText(upload.changesText.slice(0, CHANGES_PREVIEW_LIMIT), 'tabs and newlines'),
      truncated,
    },
    digest: digestOf(upload),
  };
}
