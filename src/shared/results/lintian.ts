/**
 * Lintian's results: the tag counts by severity the server keeps in the artifact's data,
 * and the tags themselves from the artifact's `analysis.json`. Both come from the server
 * and are checked field by field; an entry that does not fit is named in the error.
 */
import { z } from 'zod';
import type { ArtifactResponse } from '../models';

/** Lintian's severities, most severe first, as Debusine counts them. */
export const LINTIAN_SEVERITIES = [
  'error',
  'warning',
  'info',
  'pedantic',
  'experimental',
  'overridden',
  'classification',
] as const;
export type LintianSeverity = (typeof LINTIAN_SEVERITIES)[number];

export interface LintianSummary {
  artifactId: number;
  /** `source`, an architecture, or `all`, as the artifact's data says; null when absent. */
  architecture: string | null;
  counts: Record<LintianSeverity, number>;
  lintianVersion: string | null;
}

export function lintianSummary(artifact: ArtifactResponse): LintianSummary {
  const data = artifact.data as {
    architecture?: unknown;
    summary?: { tags_count_by_severity?: unknown; lintian_version?: unknown };
  };
  const raw = data.summary?.tags_count_by_severity;
  const source: Record<string, unknown> =
    raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const counts = Object.fromEntries(
    LINTIAN_SEVERITIES.map((s) => {
      const n = source[s];
      return [s, typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0];
    }),
  ) as Record<LintianSeverity, number>;
  const version = data.summary?.lintian_version;
  return {
    artifactId: artifact.id,
    architecture: typeof data.architecture === 'string' ? data.architecture : null,
    counts,
    lintianVersion: typeof version === 'string' ? version : null,
  };
}

const tagSchema = z.looseObject({
  severity: z.string().max(40),
  package: z.string().max(300),
  tag: z.string().max(300),
  note: z.string().max(100_000).default(''),
  pointer: z.string().max(10_000).default(''),
  explanation: z.string().max(200_000).default(''),
  comment: z.string().max(100_000).default(''),
});
const analysisSchema = z.looseObject({ tags: z.array(tagSchema).max(200_000) });

export type LintianTag = z.infer<typeof tagSchema>;

/** An artifact's tags as main reads them for the results view. */
export interface LintianTags {
  artifactId: number;
  /** The first tags, most severe first; fewer than `total` when the list was cut. */
  tags: LintianTag[];
  /** How many tags the file holds. */
  total: number;
}

/** The tags of an `analysis.json`, most severe first; throws naming what did not fit. */
export function parseLintianAnalysis(text: string, name = 'analysis.json'): LintianTag[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = analysisSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the top level';
    throw new Error(`${name}: ${where}: ${issue?.message ?? 'unexpected content'}`);
  }
  const rank = (severity: string) => {
    const i = (LINTIAN_SEVERITIES as readonly string[]).indexOf(severity);
    return i === -1 ? LINTIAN_SEVERITIES.length : i;
  };
  return [...parsed.data.tags].sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      a.package.localeCompare(b.package, 'en') ||
      a.tag.localeCompare(b.tag, 'en'),
  );
}

/** The rows a filter keeps: a severity set, and text found in the tag, package or note. */
export function filterLintianTags(
  tags: readonly LintianTag[],
  filter: { severities?: ReadonlySet<string>; text?: string },
): LintianTag[] {
  const needle = filter.text?.trim().toLowerCase() ?? '';
  return tags.filter(
    (t) =>
      (!filter.severities || filter.severities.has(t.severity)) &&
      (needle === '' ||
        t.tag.toLowerCase().includes(needle) ||
        t.package.toLowerCase().includes(needle) ||
        t.note.toLowerCase().includes(needle)),
  );
}
