/**
 * The errors a download ends with. Each names the artifact, the file (or archive member)
 * and what was wrong, and carries them in `details` (`artifact`, `file`, `rule`) so that a
 * caller can tell them apart without reading the message.
 */
import { DebusineError, type ErrorCode } from '../../../shared/errors';
import { quotePath } from '../formats/artifact-paths';

/** What is being downloaded, for messages: `a.txt of artifact 12`. */
export interface Subject {
  artifact: number;
  /** An artifact path, or a name such as `artifact-12.tar.gz`; absent for "the archive". */
  file?: string;
}

export function subjectText(subject: Subject): string {
  const artifact = `artifact ${String(subject.artifact)}`;
  return subject.file === undefined
    ? `the archive of ${artifact}`
    : `${subject.file} of ${artifact}`;
}

function details(subject: Subject, rule: string, extra: Record<string, unknown> = {}) {
  return {
    operation: 'downloadArtifact',
    artifact: subject.artifact,
    ...(subject.file === undefined ? {} : { file: subject.file }),
    rule,
    ...extra,
  };
}

export function downloadError(
  code: ErrorCode,
  subject: Subject,
  rule: string,
  message: string,
  extra?: Record<string, unknown>,
): DebusineError {
  return new DebusineError(code, message, details(subject, rule, extra));
}

/** A path from the server that is not a relative path inside the artifact. */
export function badPath(artifact: number, path: string, problem: string): DebusineError {
  return new DebusineError(
    'bad-response',
    `Artifact ${String(artifact)} was refused: its file ${quotePath(path)} ${problem}`,
    { operation: 'downloadArtifact', artifact, file: path, rule: 'artifact-path' },
  );
}

/** Something in the archive that is not one of the artifact's files, as declared. */
export function badMember(
  artifact: number,
  name: string,
  problem: string,
  rule: string,
): DebusineError {
  return new DebusineError(
    'bad-response',
    `The archive of artifact ${String(artifact)} was refused: member ${quotePath(name)} ${problem}`,
    { operation: 'downloadArtifact', artifact, file: name, rule },
  );
}

/** More bytes arrived than the artifact declares; reading stopped there. */
export function tooLarge(subject: Subject, declared: number): DebusineError {
  return downloadError(
    'bad-response',
    subject,
    'download-size',
    `${subjectText(subject)} was refused: the server sent more than the ${String(declared)} bytes the artifact declares`,
    { expected: declared },
  );
}

/**
 * A size announced before the bytes (a Content-Length, a tar header) that differs from the
 * declared one: refused before a byte of the body is read.
 */
export function wrongSize(
  subject: Subject,
  declared: number,
  announced: number,
  who: string,
): DebusineError {
  const relation = announced > declared ? 'more than' : 'not';
  return downloadError(
    'bad-response',
    subject,
    'download-size',
    `${subjectText(subject)} was refused: ${who} announces ${String(announced)} bytes, ${relation} the ${String(declared)} bytes the artifact declares`,
    { expected: declared, received: announced },
  );
}

export function endedEarly(subject: Subject, received: number, declared: number): DebusineError {
  return downloadError(
    'bad-response',
    subject,
    'download-size',
    `${subjectText(subject)} ended after ${String(received)} of ${String(declared)} bytes`,
    { received, expected: declared },
  );
}

export function hashMismatch(subject: Subject, expected: string, got: string): DebusineError {
  return downloadError(
    'bad-response',
    subject,
    'download-verify',
    `${subjectText(subject)}: hash mismatch (the artifact declares SHA-256 ${expected}, the server sent ${got})`,
    { expected, received: got },
  );
}

export function connectionBroke(
  subject: Subject,
  received: number,
  declared: number,
  cause: unknown,
  context = '',
): DebusineError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DebusineError(
    'network',
    `The connection broke while downloading ${subjectText(subject)} after ${String(received)} of ${String(declared)} bytes${context} (${reason})`,
    details(subject, 'download-connection', { received, expected: declared }),
    cause,
  );
}

export function cancelled(subject: Subject): DebusineError {
  return downloadError(
    'cancelled',
    subject,
    'download-cancelled',
    `The download of ${subjectText(subject)} was cancelled`,
  );
}

/** Whether an error is the abort of a signal (ours, or undici's for an aborted request). */
export function isAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === 'AbortError' || code === 'ABORT_ERR' || code === 'UND_ERR_ABORTED';
}

/** `error` as it should reach the caller: ours as they are, an abort as a cancellation. */
export function asDownloadError(subject: Subject, error: unknown, signal?: AbortSignal): unknown {
  if (error instanceof DebusineError) return error;
  if (signal?.aborted || isAbort(error)) return cancelled(subject);
  return error;
}
