/**
 * What the log viewer's entries of the bridge answer (logs.*). A log stays in main: the
 * renderer holds an opaque handle and asks for windows of lines, already decoded into
 * plain text that is safe to show as text (never as HTML).
 */
import type { SerializedError } from './errors';

/** A file of an artifact opened for reading, as it arrives and once it is all there. */
export interface LogState {
  /** Opaque: main hands it out, the renderer passes it back; it names no path. */
  handle: string;
  artifactId: number;
  /** The file's path inside the artifact. */
  path: string;
  /** The size the artifact declares, in bytes. */
  size: number;
  /** Bytes read and indexed so far. */
  bytes: number;
  /** Lines that can be read so far (all of them once `state` is `ready`). */
  lines: number;
  /** loading: still arriving (or being indexed); ready: complete and verified. */
  state: 'loading' | 'ready' | 'failed';
  /** True when the copy in the app's cache was used and nothing was downloaded. */
  fromCache: boolean;
  /** Why it failed; the lines read so far were never verified and cannot be read. */
  error: SerializedError | null;
  /** For an sbuild log, once `ready`; null otherwise. A live log's grows as it arrives. */
  analysis: SbuildLogAnalysis | null;
  /** Only for the live log of a running step (logs.openLive). */
  live?: LiveLogInfo;
}

/**
 * A running step's log as the server streams it, copied into a growing local file: `state`
 * is `loading` while it streams, `ready` once the stream ended (for whatever reason, said
 * by `status` and `message`).
 */
export interface LiveLogInfo {
  workRequestId: number;
  /** The API URL of the server it streams from: a live log is never shown for another. */
  server: string;
  /**
   * connecting, streaming; then ended (the step ended), refused (the server will not
   * stream it), lost (the connection broke beyond the bounded reconnects), stopped
   * (closed, or the local copy reached its bound).
   */
  status: 'connecting' | 'streaming' | 'ended' | 'refused' | 'lost' | 'stopped';
  /** One line for the user when it did not end normally; null otherwise. */
  message: string | null;
  /** The exit code the stream's end carried, when it did. */
  exitCode: number | null;
  /**
   * The live line where sbuild's own log begins (`sbuild (Debian sbuild) …`), whose line 0
   * of the stored build log it is; null until seen. The stream adds the worker's lines
   * before it, and may begin part-way when it was joined late.
   */
  sbuildStart: number | null;
  /**
   * Lines for the user when output may be missing or repeated (a reconnection whose replay
   * of the stream did not line up with what was shown), each said once, oldest first.
   */
  notices: string[];
}

export interface LogLine {
  /** The line as text: controls made visible, terminal escapes removed. */
  text: string;
  /** null for a whole line; for a line cut short, its full length in bytes. */
  cut: number | null;
}

export interface LogWindow {
  handle: string;
  /** The number of the first line returned (0-based). */
  from: number;
  /** Possibly fewer than asked: the window stops at a byte budget and at the lines read so far. */
  lines: LogLine[];
  /** Lines that can be read so far. */
  totalLines: number;
  done: boolean;
}

export interface LogSearchResult {
  /** Lines that match, among the lines searched. */
  matches: number;
  /** The matching line found in the direction asked (wrapping around), or null. */
  line: number | null;
  /** Its place among the matching lines, from 1; null when no line matches. */
  ordinal: number | null;
  /** True when the search went past the end (or the start) of the file to find it. */
  wrapped: boolean;
  /** False while the file is still arriving: only `searchedLines` lines were searched. */
  complete: boolean;
  searchedLines: number;
  /**
   * False when the line was answered before the search had gone through every line there
   * is (asked with `until: 'found'`): `matches` then counts only the lines gone through so
   * far, while main goes on counting; the same search with `until: 'counted'` waits for the
   * whole count. The lines before the one found are all gone through, so `ordinal` is exact.
   */
  counted: boolean;
}

/**
 * What a search waits for before it answers: `counted`, the whole count; `found`, only the
 * matching line asked for (forwards; backwards it still waits for the count).
 */
export type SearchUntil = 'found' | 'counted';

export interface SbuildOutlineEntry {
  title: string;
  /** The line to show (0-based): the top of a boxed header, or the line itself. */
  line: number;
  /**
   * package: the box that opens the log; section: a boxed header; step: an underlined
   * heading inside a section; summary: a line of the summary at the end.
   */
  kind: 'package' | 'section' | 'step' | 'summary';
  /** The time printed in the header, as printed; null when it has none. */
  date: string | null;
}

export interface SbuildSummary {
  /** `Status:` (successful, attempted, given-back, skipped…). */
  status: string | null;
  /** `Fail-Stage:` (build, install-deps, fetch-src…). */
  failStage: string | null;
  /** `Build-Time:` in seconds. */
  buildTime: number | null;
  /** From `Build needed HH:MM:SS, …`, in seconds. */
  duration: number | null;
  package: string | null;
  version: string | null;
  distribution: string | null;
  architecture: string | null;
  /** Every `Key: value` line of the Summary section, as printed (bounded). */
  fields: Record<string, string>;
}

export interface SbuildLogAnalysis {
  kind: 'sbuild';
  outline: SbuildOutlineEntry[];
  summary: SbuildSummary;
  /** Lines that look like errors (E:, error:, make: ***, dh_…: error), the first ones. */
  errorLines: number[];
  /** How many lines looked like errors in all (errorLines keeps a bounded number). */
  errorLineCount: number;
  /** Where the build broke: null for a successful build, or when nothing says. */
  error: { line: number; text: string } | null;
}
