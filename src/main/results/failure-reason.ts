/**
 * Why a step failed, in one line a notification or a workflow's tree can show, and where to
 * look: an sbuild failure is the line where the build broke in its build log (found by the
 * log analyser, not the summary at the end), with the stage sbuild names; lintian is its
 * error and warning counts; autopkgtest is the tests that failed.
 */
import type { ArtifactResponse, WorkRequestResponse } from '../../shared/models';
import type { SbuildLogAnalysis } from '../../shared/log-types';
import { failedByItself } from '../../shared/results/end';
import type { FailureReason } from '../../shared/results/failure';
import { autopkgtestResults, failedTests } from '../../shared/results/autopkgtest';
import { text } from '../../shared/results/binary-packages';
import { lintianSummary } from '../../shared/results/lintian';

export type { FailureReason };

export interface FailureSources {
  artifact: (id: number) => Promise<ArtifactResponse>;
  /** The analysis of an sbuild log once it is all downloaded; null for other files. */
  analyseLog: (artifactId: number, path: string) => Promise<SbuildLogAnalysis | null>;
}

/** Lines longer than this are cut with an ellipsis: a notification body is short. */
const MAX_WHY = 200;

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_WHY ? `${line.slice(0, MAX_WHY - 1)}…` : line;
}

async function artifactsOf(
  workRequest: WorkRequestResponse,
  sources: FailureSources,
): Promise<ArtifactResponse[]> {
  // A failed task produces a handful of artifacts; a server that lists thousands is not
  // read past the first few.
  return Promise.all(workRequest.artifacts.slice(0, 20).map((id) => sources.artifact(id)));
}

async function sbuildReason(
  workRequest: WorkRequestResponse,
  artifacts: ArtifactResponse[],
  sources: FailureSources,
): Promise<FailureReason | null> {
  const logArtifact = artifacts.find((a) => a.category === 'debian:package-build-log');
  const path = logArtifact
    ? Object.keys(logArtifact.files).find((name) => name.endsWith('.build'))
    : undefined;
  const data = logArtifact?.data ?? {};
  const what = ['sbuild', text(data.source), text(data.version), text(data.architecture)]
    .filter((part): part is string => part !== null)
    .join(' ');
  if (!logArtifact || path === undefined) {
    return { workRequestId: workRequest.id, what, why: 'no build log', log: null };
  }
  const analysis = await sources.analyseLog(logArtifact.id, path);
  const stage = analysis?.summary.failStage ?? null;
  const error = analysis?.error ?? null;
  const why = error
    ? `${stage ?? 'build'}: ${short(error.text)}`
    : stage
      ? `failed at the ${stage} stage`
      : `status ${analysis?.summary.status ?? 'unknown'}`;
  return {
    workRequestId: workRequest.id,
    what,
    why,
    log: { artifactId: logArtifact.id, path, line: error?.line ?? 0 },
  };
}

function lintianReason(
  workRequest: WorkRequestResponse,
  artifacts: ArtifactResponse[],
): FailureReason | null {
  const summaries = artifacts.filter((a) => a.category === 'debian:lintian').map(lintianSummary);
  if (summaries.length === 0) return null;
  const errors = summaries.reduce((n, s) => n + s.counts.error, 0);
  const warnings = summaries.reduce((n, s) => n + s.counts.warning, 0);
  const plural = (n: number, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
  return {
    workRequestId: workRequest.id,
    what: 'lintian',
    why: `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`,
    log: null,
  };
}

function autopkgtestReason(
  workRequest: WorkRequestResponse,
  artifacts: ArtifactResponse[],
): FailureReason | null {
  const artifact = artifacts.find((a) => a.category === 'debian:autopkgtest');
  if (!artifact) return null;
  const failed = failedTests(autopkgtestResults(artifact));
  if (failed.length === 0) return null;
  const named = failed
    .slice(0, 3)
    .map((t) => `${t.name} ${t.status}${t.details ? ` (${t.details})` : ''}`)
    .join(', ');
  const more = failed.length > 3 ? ` and ${String(failed.length - 3)} more` : '';
  const log = 'log' in artifact.files ? { artifactId: artifact.id, path: 'log', line: 0 } : null;
  return { workRequestId: workRequest.id, what: 'autopkgtest', why: short(named + more), log };
}

/** Why this failed task failed, or null when its kind says nothing more than its result. */
export async function explainFailure(
  workRequest: WorkRequestResponse,
  sources: FailureSources,
): Promise<FailureReason | null> {
  if (workRequest.task_type !== 'Worker') return null;
  if (!failedByItself(workRequest)) return null;
  const artifacts = await artifactsOf(workRequest, sources);
  switch (workRequest.task_name) {
    case 'sbuild':
      return sbuildReason(workRequest, artifacts, sources);
    case 'lintian':
      return lintianReason(workRequest, artifacts);
    case 'autopkgtest':
      return autopkgtestReason(workRequest, artifacts);
    default:
      return null;
  }
}
