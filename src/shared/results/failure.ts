/** Why a step failed, in one line, and the log line that shows it. */
export interface FailureReason {
  /** The step that broke (the work request itself, or a step of the workflow). */
  workRequestId: number;
  /** "sbuild hello 2.10-3 amd64". */
  what: string;
  /** "build: make: *** [debian/rules:3: binary] Error 2". */
  why: string;
  /** The line to open: the build log at the line where the build broke. */
  log: { artifactId: number; path: string; line: number } | null;
}
