/**
 * Autopkgtest's results: each test's status from the artifact's data (`results`), or, when
 * the data has none, from the `summary` file autopkgtest writes ("NAME STATUS [details]").
 */
import type { ArtifactResponse } from '../models';

export interface AutopkgtestResult {
  name: string;
  /** PASS, FAIL, SKIP, FLAKY or NEUTRAL as autopkgtest says; other words are kept as they are. */
  status: string;
  details: string | null;
}

export function autopkgtestResults(artifact: ArtifactResponse): AutopkgtestResult[] {
  const raw = (artifact.data as { results?: unknown }).results;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const out: AutopkgtestResult[] = [];
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const entry = (value ?? {}) as { status?: unknown; details?: unknown };
    out.push({
      name,
      status: typeof entry.status === 'string' ? entry.status : 'UNKNOWN',
      details: typeof entry.details === 'string' ? entry.details : null,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** autopkgtest's `summary` file: one test per line, its name, its status, then details. */
export function parseAutopkgtestSummary(text: string): AutopkgtestResult[] {
  const out: AutopkgtestResult[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+([A-Z]+)(?:\s+(.*))?$/.exec(line.trimEnd());
    if (!match) continue;
    const [, name = '', status = '', details] = match;
    out.push({ name, status, details: details ?? null });
  }
  return out;
}

/** Tests that did not pass or skip: what a failure's one-line reason names. */
export function failedTests(results: readonly AutopkgtestResult[]): AutopkgtestResult[] {
  return results.filter((r) => r.status !== 'PASS' && r.status !== 'SKIP');
}
