/**
 * Regression tracking, recomputed: the verdict Debusine's QA workflows keep in their
 * `output_data.regression_analysis`, which the REST API does not return. The rules are the
 * server's own (Debusine 0.16, server/workflows/): the coarse comparison of the two QA work
 * requests' status and result, as `RegressionTrackingWorkflow.compare_qa_results` does; when
 * that says "stable", the finer comparison of each check (autopkgtest's and lintian's
 * `compare_qa_results_fine_grained`; piuparts and blhc have none); and the overall verdict,
 * as `summarize_regression_analysis_statuses` combines them.
 *
 * Everything here comes from a server and is read field by field, never trusted: a field
 * missing or of the wrong type, or a result with a million tests, gives a verdict and a
 * bounded list of rows, never an exception.
 */
import { WORK_REQUEST_RESULTS, WORK_REQUEST_STATUSES } from '../models';
import { boundedText } from '../shown-text';

/** The server's `RegressionAnalysisStatus`, in the order the overall verdict prefers them. */
export const REGRESSION_STATUSES = [
  'regression',
  'error',
  'improvement',
  'stable',
  'no-result',
] as const;
export type RegressionStatus = (typeof REGRESSION_STATUSES)[number];

/** The checks whose sub-workflows track regressions, in the order the page shows them. */
export const QA_CHECKS = ['autopkgtest', 'lintian', 'piuparts', 'blhc'] as const;
export type QaCheck = (typeof QA_CHECKS)[number];

/** A work request's status and result as the server sent them (any type). */
export interface QaWorkRequest {
  status?: unknown;
  result?: unknown;
}

/** One QA result: the artifact's data and the work request that produced it. */
export interface QaResult {
  /** null when the artifact's work request is not known (the server then has no result). */
  workRequest: QaWorkRequest | null | undefined;
  /** The artifact's `data`, as the server sent it. */
  data: unknown;
}

/**
 * The reference result and the new one of one check on one architecture, as the server's
 * callback picks them: the reference, the newest entry for the check, package and
 * architecture in the reference QA results collection; the new one, from the sub-workflow's
 * work request for that architecture (the last retry's, when it was retried). A new result
 * whose work request has not ended is taken as none yet, as the server takes it.
 */
export interface QaComparisonInput {
  /** The sub-workflow's task name; one that is not a tracked check is left out. */
  check: string;
  /**
   * The package the sub-workflow tests (its dynamic data's `subject`): the QA workflow's
   * reverse-dependency autopkgtests test other packages on the same architecture.
   */
  subject?: string | null;
  architecture: string;
  reference: QaResult | null | undefined;
  new: QaResult | null | undefined;
}

/** One line of the page's table. */
export interface RegressionRow {
  check: QaCheck;
  /** The package tested when the input named one. */
  subject: string | null;
  architecture: string;
  /** A test's name or a lintian tag; null for the work requests' results or tag counts. */
  item: string | null;
  /** What the reference said: 'pass', 'fail', '3 warnings', 'success', 'none'… */
  reference: string;
  new: string;
  status: RegressionStatus;
  /** It failed in the reference too: the new version is no worse there. */
  failedBefore: boolean;
}

/** The verdict for one check on one architecture, as the server's callback records it. */
export interface ArchitectureVerdict {
  check: QaCheck;
  subject: string | null;
  architecture: string;
  status: RegressionStatus;
  /** The coarse comparison of the two work requests, before any finer one. */
  coarse: RegressionStatus;
}

export interface RegressionAnalysis {
  /** The summary of every verdict, as the QA workflow's collation callback makes it. */
  overall: RegressionStatus;
  verdicts: ArchitectureVerdict[];
  /** At most MAX_ROWS, regressions kept first when there are more. */
  rows: RegressionRow[];
  /**
   * How many rows say why an architecture regressed, errored or improved (the rows behind
   * its verdict), counted over every architecture before anything was left out.
   */
  regressionCount: number;
  errorCount: number;
  improvementCount: number;
  /** Rows that say why the overall verdict is what it is (bounded like `rows`). */
  regressions: RegressionRow[];
  errors: RegressionRow[];
  improvements: RegressionRow[];
  /** Rows that failed in the reference and still fail, where nothing regressed. */
  failedBefore: RegressionRow[];
  failedBeforeCount: number;
  /** Some rows or verdicts were left out to stay bounded. */
  truncated: boolean;
}

/** More rows than a page can usefully show; a million tests must not become a million rows. */
export const MAX_ROWS = 400;
/** Checks times architectures times packages (reverse dependencies): shown, all count. */
export const MAX_VERDICTS = 500;
/** A test's or tag's name, an architecture: longer ones are cut. */
export const NAME_MAX = 120;
/** The notification's line. */
export const SUMMARY_MAX = 300;
/** How many items the notification's line names before saying "and N more". */
const NAMED_IN_SUMMARY = 3;

// ---------------------------------------------------------------------------------------
// The coarse comparison

const KNOWN_STATUSES: ReadonlySet<string> = new Set(WORK_REQUEST_STATUSES);
const KNOWN_RESULTS: ReadonlySet<string> = new Set(WORK_REQUEST_RESULTS);
const PASSED: ReadonlySet<string> = new Set(['success', 'skipped']);
const FAILED_OR_ERRORED: ReadonlySet<string> = new Set(['failure', 'temporary failure', 'error']);
const FAILED: ReadonlySet<string> = new Set(['failure', 'temporary failure']);

/** A work request's status and result when both are values the server can have; else null. */
function known(wr: QaWorkRequest | null | undefined): { status: string; result: string } | null {
  if (wr === null || wr === undefined || typeof wr !== 'object') return null;
  const { status, result } = wr;
  if (typeof status !== 'string' || !KNOWN_STATUSES.has(status)) return null;
  if (typeof result !== 'string' || !KNOWN_RESULTS.has(result)) return null;
  return { status, result };
}

function present(wr: QaWorkRequest | null | undefined): boolean {
  return wr !== null && wr !== undefined;
}

/**
 * The coarse comparison of the work requests that produced the two QA results, case for case
 * as the server's compare_qa_results does: no result when either is missing; a regression
 * from success or skipped to failure, temporary failure or error; an improvement the other
 * way; stable between two passes, between two failures (temporary or not), or when both
 * completed with the same result; an error for anything else (an aborted or unfinished one,
 * a failure against an error).
 *
 * A status or result the server cannot have (a newer server's word, or a wrong type) is not
 * guessed at: the comparison says 'no-result'.
 */
export function compareQaResults(
  reference: QaWorkRequest | null | undefined,
  next: QaWorkRequest | null | undefined,
): RegressionStatus {
  if (!present(reference) || !present(next)) return 'no-result';
  const ref = known(reference);
  const neu = known(next);
  if (ref === null || neu === null) return 'no-result';
  if (ref.status !== 'completed' || neu.status !== 'completed') return 'error';
  if (PASSED.has(ref.result) && FAILED_OR_ERRORED.has(neu.result)) return 'regression';
  if (FAILED_OR_ERRORED.has(ref.result) && PASSED.has(neu.result)) return 'improvement';
  if (PASSED.has(ref.result) && PASSED.has(neu.result)) return 'stable';
  if (FAILED.has(ref.result) && FAILED.has(neu.result)) return 'stable';
  if (ref.result === neu.result) return 'stable';
  return 'error';
}

/** The overall verdict of several, as the server's summarize_regression_analysis_statuses. */
export function summarizeRegressionStatuses(
  statuses: Iterable<RegressionStatus>,
): RegressionStatus {
  const seen = new Set(statuses);
  // The server prefers a regression to an error: an error may be one task's passing trouble.
  for (const status of REGRESSION_STATUSES) if (seen.has(status)) return status;
  return 'no-result';
}

// ---------------------------------------------------------------------------------------
// Reading the artifacts' data

/** A stable order that does not depend on the machine's locale. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function name(text: string): string {
  return boundedText(text, NAME_MAX);
}

/**
 * One autopkgtest test's status as the server's pattern match sees it: 'none' for a test
 * that is absent (or null), the four statuses of its artifact model, and 'other' for an
 * entry that matches none of its patterns (a lower-case word, a string instead of an object).
 */
type TestStatus = 'PASS' | 'FAIL' | 'FLAKY' | 'SKIP' | 'none' | 'other';

function testStatus(entry: unknown): TestStatus {
  if (entry === undefined || entry === null) return 'none';
  if (!isRecord(entry)) return 'other';
  const status = ownValue(entry, 'status');
  return status === 'PASS' || status === 'FAIL' || status === 'FLAKY' || status === 'SKIP'
    ? status
    : 'other';
}

function testStatusText(status: TestStatus): string {
  return status === 'other' ? 'unknown' : status.toLowerCase();
}

/**
 * One test's comparison, as the server's autopkgtest compare_qa_results_fine_grained: a
 * regression when a test that passed, was skipped or did not exist now fails; an improvement
 * when one that failed or was flaky now passes, is skipped or is gone; anything else stable
 * (a flaky test that now fails too).
 */
function compareTest(reference: TestStatus, next: TestStatus): RegressionStatus {
  if ((reference === 'PASS' || reference === 'SKIP' || reference === 'none') && next === 'FAIL')
    return 'regression';
  if (
    (reference === 'FAIL' || reference === 'FLAKY') &&
    (next === 'PASS' || next === 'SKIP' || next === 'none')
  )
    return 'improvement';
  return 'stable';
}

/**
 * A result's `results`, or null when the data has none the server could read: its artifact
 * model requires the field, and the server's comparison would fail on one without it.
 */
function autopkgtestResults(result: QaResult | null): Map<string, TestStatus> | null {
  if (result === null) return new Map();
  if (!isRecord(result.data)) return null;
  const raw = ownValue(result.data, 'results');
  if (!isRecord(raw)) return null;
  const out = new Map<string, TestStatus>();
  for (const [test, entry] of Object.entries(raw)) out.set(test, testStatus(entry));
  return out;
}

interface LintianData {
  counts: { warning: number; error: number };
  tags: Set<string>;
}

/** A count the server's `>` could compare: missing is 0, as its `.get(severity, 0)`. */
function lintianCount(counts: Record<string, unknown>, severity: string): number | null {
  const n = ownValue(counts, severity);
  if (n === undefined) return 0;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/**
 * A lintian result's `summary`, or null when it is not one the server could compare (no
 * summary, counts that are not numbers): the server's comparison would fail on it.
 */
function lintianData(result: QaResult | null): LintianData | null {
  if (result === null) return { counts: { warning: 0, error: 0 }, tags: new Set() };
  if (!isRecord(result.data)) return null;
  const summary = ownValue(result.data, 'summary');
  if (!isRecord(summary)) return null;
  // Absent is empty, as the server's `.get(…, {})`; present but null it could not read.
  const countsValue = ownValue(summary, 'tags_count_by_severity');
  const rawCounts = countsValue === undefined ? {} : countsValue;
  if (!isRecord(rawCounts)) return null;
  const warning = lintianCount(rawCounts, 'warning');
  const error = lintianCount(rawCounts, 'error');
  if (warning === null || error === null) return null;
  const tagsValue = ownValue(summary, 'tags_found');
  const rawTags = tagsValue === undefined ? [] : tagsValue;
  if (!Array.isArray(rawTags)) return null;
  const tags = new Set<string>();
  for (const tag of rawTags as unknown[]) if (typeof tag === 'string') tags.add(tag);
  return { counts: { warning, error }, tags };
}

const EMPTY_LINTIAN: LintianData = { counts: { warning: 0, error: 0 }, tags: new Set() };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------
// Rows, kept bounded

/** Which rows are kept first when there are too many: what the verdict rests on. */
function priority(status: RegressionStatus, failedBefore: boolean): number {
  if (status === 'regression') return 0;
  if (status === 'error') return 1;
  if (status === 'improvement') return 2;
  if (failedBefore) return 3;
  return 4;
}

/** A row, made only when it is kept: a million tests must not make a million rows. */
type MakeRow = () => RegressionRow;

/**
 * Rows collected in order, at most MAX_ROWS of each priority, so that a huge result costs
 * bounded memory and the rows the verdict rests on are never the ones left out.
 */
class RowCollector {
  private readonly buckets: { row: RegressionRow; order: number }[][] = [[], [], [], [], []];
  private count = 0;
  dropped = false;

  add(status: RegressionStatus, failedBefore: boolean, make: MakeRow): void {
    const bucket = this.buckets[priority(status, failedBefore)];
    if (bucket === undefined || bucket.length >= MAX_ROWS) {
      this.dropped = true;
      return;
    }
    bucket.push({ row: make(), order: this.count++ });
  }

  rows(): RegressionRow[] {
    const kept: { row: RegressionRow; order: number }[] = [];
    for (const bucket of this.buckets) {
      for (const entry of bucket) {
        if (kept.length >= MAX_ROWS) {
          this.dropped = true;
          break;
        }
        kept.push(entry);
      }
    }
    // Shown in the order they were made: check, architecture, then item.
    return kept.sort((a, b) => a.order - b.order).map((e) => e.row);
  }
}

function resultText(result: QaResult | null): string {
  if (result === null) return 'none';
  const wr = result.workRequest;
  if (wr === null || wr === undefined) return 'unknown';
  const { status, result: outcome } = wr;
  if (status === 'completed' && typeof outcome === 'string' && outcome !== '')
    return boundedText(outcome, 40);
  return typeof status === 'string' && status !== '' ? boundedText(status, 40) : 'unknown';
}

function failedResult(result: QaResult | null): boolean {
  const wr = known(result?.workRequest);
  return wr !== null && wr.status === 'completed' && FAILED_OR_ERRORED.has(wr.result);
}

// ---------------------------------------------------------------------------------------
// The analysis

interface ArchitectureOutcome {
  verdict: ArchitectureVerdict;
  /** The rows that say why the verdict is what it is. */
  reasons: RegressionRow[];
  reasonCount: number;
  failedBefore: RegressionRow[];
  failedBeforeCount: number;
}

function isCheck(value: string): value is QaCheck {
  return (QA_CHECKS as readonly string[]).includes(value);
}

/**
 * The new result as the server finds it: only from a work request that has ended (completed
 * or aborted), as its find_new_artifacts keeps only terminated ones.
 */
function newResult(result: QaResult | null | undefined): QaResult | null {
  if (result === null || result === undefined) return null;
  const status = result.workRequest?.status;
  return status === 'completed' || status === 'aborted' ? result : null;
}

/** Rows of one comparison are made one at a time, and only a bounded few are remembered. */
class Reasons {
  readonly rows: RegressionRow[] = [];
  count = 0;
  add(make: MakeRow): void {
    this.count += 1;
    if (this.rows.length < MAX_ROWS) this.rows.push(make());
  }
}

function analyseOne(
  check: QaCheck,
  subject: string | null,
  architecture: string,
  reference: QaResult | null,
  next: QaResult | null,
  collector: RowCollector,
): ArchitectureOutcome {
  const coarse = compareQaResults(reference?.workRequest, next?.workRequest);
  const fine = new Map<RegressionStatus, Reasons>(
    REGRESSION_STATUSES.map((s) => [s, new Reasons()]),
  );
  const failedBefore = new Reasons();
  const row = (
    item: string | null,
    ref: string,
    neu: string,
    status: RegressionStatus,
    failed = false,
  ): RegressionRow => ({
    check,
    subject,
    architecture,
    item,
    reference: ref,
    new: neu,
    status,
    failedBefore: failed,
  });
  // A row of the finer comparison counts for its status, and is made once if anything keeps it.
  const fineRow = (status: RegressionStatus, failed: boolean, make: MakeRow): void => {
    let made: RegressionRow | undefined;
    const once: MakeRow = () => (made ??= make());
    fine.get(status)?.add(once);
    if (failed) failedBefore.add(once);
    collector.add(status, failed, once);
  };

  // Both sides are read before anything is compared: data the server could not have read
  // (its artifact models require these fields) makes its comparison fail, which is what
  // its 'error' status means.
  const fineCheck = check === 'autopkgtest' || check === 'lintian';
  const refTests =
    check === 'autopkgtest' ? autopkgtestResults(reference) : new Map<string, TestStatus>();
  const newTests =
    check === 'autopkgtest' ? autopkgtestResults(next) : new Map<string, TestStatus>();
  const refLintian = check === 'lintian' ? lintianData(reference) : EMPTY_LINTIAN;
  const newLintian = check === 'lintian' ? lintianData(next) : EMPTY_LINTIAN;
  if (refTests === null || newTests === null || refLintian === null || newLintian === null) {
    const unreadable = 'unreadable result';
    const made = row(
      null,
      refTests === null || refLintian === null ? unreadable : resultText(reference),
      newTests === null || newLintian === null ? unreadable : resultText(next),
      'error',
    );
    collector.add('error', false, () => made);
    return {
      verdict: { check, subject, architecture, status: 'error', coarse },
      reasons: [made],
      reasonCount: 1,
      failedBefore: [],
      failedBeforeCount: 0,
    };
  }

  // The work requests' results are shown for checks without a finer comparison, or when
  // they, not the finer comparison, decided.
  const coarseFailedBefore = !fineCheck && failedResult(reference) && failedResult(next);
  const coarseRow = row(null, resultText(reference), resultText(next), coarse, coarseFailedBefore);
  if (!fineCheck || coarse !== 'stable') {
    if (coarseFailedBefore) failedBefore.add(() => coarseRow);
    collector.add(coarse, coarseFailedBefore, () => coarseRow);
  }

  let fineStatus: RegressionStatus = 'stable';
  if (check === 'autopkgtest') {
    const names = [...new Set([...refTests.keys(), ...newTests.keys()])].sort();
    for (const test of names) {
      const r: TestStatus = refTests.get(test) ?? 'none';
      const n: TestStatus = newTests.get(test) ?? 'none';
      const status = compareTest(r, n);
      const failed = (r === 'FAIL' || r === 'FLAKY') && n === 'FAIL';
      fineRow(status, failed, () =>
        row(name(test), testStatusText(r), testStatusText(n), status, failed),
      );
    }
    // As the server's callback: any test's regression, else any improvement, else stable.
    fineStatus =
      (fine.get('regression')?.count ?? 0) > 0
        ? 'regression'
        : (fine.get('improvement')?.count ?? 0) > 0
          ? 'improvement'
          : 'stable';
  } else if (check === 'lintian') {
    // As the server's lintian compare_qa_results_fine_grained: more warnings or errors is a
    // regression, else fewer of either an improvement; other severities do not count.
    let more = false;
    let fewer = false;
    for (const severity of ['error', 'warning'] as const) {
      const r = refLintian.counts[severity];
      const n = newLintian.counts[severity];
      const status: RegressionStatus = n > r ? 'regression' : n < r ? 'improvement' : 'stable';
      more ||= n > r;
      fewer ||= n < r;
      // Errors in both, no more than before: lintian failed before too, for the same reason.
      const failed = severity === 'error' && r > 0 && n > 0 && n <= r;
      fineRow(status, failed, () =>
        row(null, plural(r, severity), plural(n, severity), status, failed),
      );
    }
    fineStatus = more ? 'regression' : fewer ? 'improvement' : 'stable';
    // The tags added and removed, which the server records but does not judge: shown as
    // stable, whatever their number, so that only the counts above decide.
    for (const tag of [...newLintian.tags].filter((t) => !refLintian.tags.has(t)).sort())
      collector.add('stable', false, () => row(name(tag), 'none', 'found', 'stable'));
    for (const tag of [...refLintian.tags].filter((t) => !newLintian.tags.has(t)).sort())
      collector.add('stable', false, () => row(name(tag), 'found', 'none', 'stable'));
  }

  let status: RegressionStatus;
  let reasons: Reasons;
  if (coarse === 'stable' && fineCheck) {
    status = fineStatus;
    reasons = fine.get(status) ?? new Reasons();
  } else {
    status = coarse;
    // The items that agree with the work requests' verdict say more than their results do.
    const agreeing = fine.get(status);
    reasons = agreeing !== undefined && agreeing.count > 0 ? agreeing : new Reasons();
    if (reasons.count === 0) reasons.add(() => coarseRow);
  }
  return {
    verdict: { check, subject, architecture, status, coarse },
    reasons: reasons.rows,
    reasonCount: reasons.count,
    failedBefore: failedBefore.rows,
    failedBeforeCount: failedBefore.count,
  };
}

/**
 * The regression analysis of a set of QA results, each check on each architecture compared
 * the way the server's callback for that check compares them, and the whole summarised as
 * the QA workflow's collation callback does. Comparisons of a check that is not tracked, or
 * where neither side has a result, are left out as the server leaves them out.
 */
export function analyseRegressions(inputs: readonly QaComparisonInput[]): RegressionAnalysis {
  const collector = new RowCollector();
  const statuses = new Set<RegressionStatus>();
  const verdicts: ArchitectureVerdict[] = [];
  const regressions: RegressionRow[] = [];
  const errors: RegressionRow[] = [];
  const improvements: RegressionRow[] = [];
  const failedBefore: RegressionRow[] = [];
  let regressionCount = 0;
  let improvementCount = 0;
  let errorCount = 0;
  let failedBeforeCount = 0;
  let truncated = false;

  const valid = (Array.isArray(inputs) ? inputs : []).filter(
    (i): i is QaComparisonInput =>
      isRecord(i) && typeof i.check === 'string' && typeof i.architecture === 'string',
  );
  const sorted = valid
    .filter((i) => isCheck(i.check))
    .sort(
      (a, b) =>
        QA_CHECKS.indexOf(a.check as QaCheck) - QA_CHECKS.indexOf(b.check as QaCheck) ||
        byCodeUnits(
          typeof a.subject === 'string' ? a.subject : '',
          typeof b.subject === 'string' ? b.subject : '',
        ) ||
        byCodeUnits(a.architecture, b.architecture),
    );
  for (const input of sorted) {
    const check = input.check as QaCheck;
    const reference = isRecord(input.reference) ? input.reference : null;
    const next = newResult(isRecord(input.new) ? input.new : null);
    if (reference === null && next === null) continue;
    const subject = typeof input.subject === 'string' ? name(input.subject) : null;
    const outcome = analyseOne(
      check,
      subject,
      name(input.architecture),
      reference,
      next,
      collector,
    );
    statuses.add(outcome.verdict.status);
    if (verdicts.length < MAX_VERDICTS) verdicts.push(outcome.verdict);
    else truncated = true;
    const s = outcome.verdict.status;
    const into =
      s === 'regression'
        ? regressions
        : s === 'error'
          ? errors
          : s === 'improvement'
            ? improvements
            : null;
    if (s === 'regression') regressionCount += outcome.reasonCount;
    if (s === 'error') errorCount += outcome.reasonCount;
    if (s === 'improvement') improvementCount += outcome.reasonCount;
    if (into !== null) for (const r of outcome.reasons) if (into.length < MAX_ROWS) into.push(r);
    if (s !== 'regression') {
      failedBeforeCount += outcome.failedBeforeCount;
      for (const r of outcome.failedBefore)
        if (failedBefore.length < MAX_ROWS) failedBefore.push(r);
    }
  }
  const rows = collector.rows();
  return {
    overall: summarizeRegressionStatuses(statuses),
    verdicts,
    rows,
    regressionCount,
    errorCount,
    improvementCount,
    regressions,
    errors,
    improvements,
    failedBefore,
    failedBeforeCount,
    truncated: truncated || collector.dropped,
  };
}

/**
 * The results of one check paired by architecture, as the server pairs them: by the
 * artifact data's `architecture`; of several for one architecture, the last given wins (give
 * them oldest first). Results without an architecture are left out, as the server does.
 */
export function pairByArchitecture(
  check: string,
  references: readonly QaResult[],
  news: readonly QaResult[],
): QaComparisonInput[] {
  const byArch = new Map<string, QaComparisonInput>();
  const place = (result: unknown, side: 'reference' | 'new') => {
    if (!isRecord(result) || !isRecord(result.data)) return;
    const architecture = ownValue(result.data, 'architecture');
    if (typeof architecture !== 'string') return;
    let entry = byArch.get(architecture);
    // Not bounded here: every architecture given decides the verdict (the analysis bounds
    // what it shows).
    if (entry === undefined) {
      entry = { check, architecture, reference: null, new: null };
      byArch.set(architecture, entry);
    }
    const workRequest = ownValue(result, 'workRequest');
    entry[side] = { workRequest: isRecord(workRequest) ? workRequest : null, data: result.data };
  };
  // Arrays are checked: a caller may pass on what a server sent.
  const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
  for (const r of list(references)) place(r, 'reference');
  for (const r of list(news)) place(r, 'new');
  return [...byArch.values()];
}

// ---------------------------------------------------------------------------------------
// The notification's line

/**
 * "autopkgtest greets, amd64", with the package tested when it is another than the one the
 * line is about (a reverse dependency's autopkgtest).
 */
function where(row: RegressionRow, pkg: string | null): string {
  const what = row.item === null ? row.check : `${row.check} ${row.item}`;
  const other = row.subject !== null && row.subject !== pkg ? ` of ${row.subject}` : '';
  return `${what}${other}, ${row.architecture}`;
}

function describe(row: RegressionRow, pkg: string | null): string {
  return `${where(row, pkg)}: ${row.reference} → ${row.new}`;
}

function named(rows: readonly RegressionRow[], count: number, show: (r: RegressionRow) => string) {
  const listed = rows.slice(0, NAMED_IN_SUMMARY).map(show).join('; ');
  const more = count - Math.min(rows.length, NAMED_IN_SUMMARY);
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

/**
 * One line for a notification: "hello 2.10-4: 1 regression (autopkgtest greets, amd64:
 * pass → fail)". A failure that the reference had too is said as such, not as a regression:
 * "hello 2.10-4: no regression; autopkgtest greets, amd64 already failed before".
 */
export function regressionSummaryLine(
  source: { name: unknown; version: unknown },
  analysis: RegressionAnalysis,
): string {
  // Each cut on its own, so that a long version cannot push the verdict out of the line.
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? name(v) : null);
  const pkg = text(source.name);
  const version = text(source.version);
  const headWords = [pkg, version].filter((v): v is string => v !== null);
  const head = headWords.length > 0 ? `${headWords.join(' ')}: ` : '';
  const say = (show: (r: RegressionRow, p: string | null) => string) => (r: RegressionRow) =>
    show(r, pkg);
  let body: string;
  switch (analysis.overall) {
    case 'regression':
      body = `${plural(analysis.regressionCount, 'regression')} (${named(
        analysis.regressions,
        analysis.regressionCount,
        say(describe),
      )})`;
      break;
    case 'error':
      body = `regression analysis failed (${named(
        analysis.errors,
        analysis.errorCount,
        say(describe),
      )})`;
      break;
    case 'no-result':
      body = 'no regression analysis yet';
      break;
    default: {
      const parts = ['no regression'];
      if (analysis.overall === 'improvement')
        parts.push(plural(analysis.improvementCount, 'improvement'));
      if (analysis.failedBeforeCount > 0)
        parts.push(
          `${named(analysis.failedBefore, analysis.failedBeforeCount, say(where))} already failed before`,
        );
      body = parts.join('; ');
    }
  }
  return boundedText(head + body, SUMMARY_MAX);
}
