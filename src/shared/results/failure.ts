/** Why a step failed, in one line, and the log line that shows it. */
export interface FailureReason {
  /** The step that broke (the work request itself, or a step of the workflow). */
  workRequestId: number;
  /** "sbuild hello 2.10-3 amd64". */
  what: string;
  /** "build: make: *** [debian/rules:3: binary] Error 2". */
  why: string;
  /** The line to open: the build log at the line where the build broke (counted from 0). */
  log: { artifactId: number; path: string; line: number } | null;
}

/**
 * A log line's number as the viewer shows it and people say it: counted from 1, where
 * `FailureReason.log.line` (and the viewer's own line indexes) count from 0. Every label
 * that names the line a button opens says this number, so that the two agree.
 */
export function lineNumber(line: number): number {
  return line + 1;
}
