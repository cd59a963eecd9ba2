import { useMemo, useState } from 'react';
import type { ArtifactResponse } from '@shared/contract';
import {
  LINTIAN_SEVERITIES,
  filterLintianTags,
  lintianSummary,
  type LintianSeverity,
} from '@shared/results/lintian';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useLintianTags } from '@renderer/queries/results';
import { TableHead } from '@renderer/components/table-head';

/** The chip's class: only lintian's own severities get a color of theirs. */
function severityClass(severity: string): string {
  const known = (LINTIAN_SEVERITIES as readonly string[]).includes(severity);
  return `lintian-chip sev-${known ? severity : 'other'}`;
}

/** Counts by severity as chips, colored by how much each one matters. */
export function LintianChips(props: { artifact: ArtifactResponse }): React.JSX.Element {
  const summary = lintianSummary(props.artifact);
  return (
    <ul
      className="lintian-chips"
      aria-label={`Lintian tags by severity (${summary.architecture ?? 'unknown'})`}
    >
      {LINTIAN_SEVERITIES.map((severity) => (
        <li key={severity} className={severityClass(severity)} data-testid={`lintian-${severity}`}>
          <span className="lintian-count">{summary.counts[severity]}</span> {severity}
        </li>
      ))}
    </ul>
  );
}

/** One lintian artifact: its counts, then its tags, filtered by severity and text. */
export function LintianResult(props: { artifact: ArtifactResponse }): React.JSX.Element {
  const { artifact } = props;
  const tags = useLintianTags(artifact.id);
  const [text, setText] = useState('');
  const [severity, setSeverity] = useState<LintianSeverity | 'all'>('all');
  const shown = useMemo(
    () =>
      filterLintianTags(tags.data?.tags ?? [], {
        text,
        ...(severity === 'all' ? {} : { severities: new Set([severity]) }),
      }),
    [tags.data, text, severity],
  );
  const architecture =
    typeof artifact.data.architecture === 'string' ? artifact.data.architecture : null;
  return (
    <div className="result-lintian" data-testid={`lintian-${String(artifact.id)}`}>
      <h4>Lintian{architecture ? <span className="mono"> {architecture}</span> : null}</h4>
      <LintianChips artifact={artifact} />
      {tags.isPending ? (
        <LoadingState label="Reading lintian's tags…" />
      ) : tags.isError ? (
        <ErrorState error={tags.error} onRetry={() => void tags.refetch()} />
      ) : (
        <>
          <div className="result-filter">
            <label>
              Severity{' '}
              <select
                value={severity}
                onChange={(e) => {
                  setSeverity(e.target.value as LintianSeverity | 'all');
                }}
              >
                <option value="all">all</option>
                {LINTIAN_SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Filter{' '}
              <input
                type="search"
                value={text}
                placeholder="tag, package or note"
                onChange={(e) => {
                  setText(e.target.value);
                }}
              />
            </label>
          </div>
          {tags.data.tags.length < tags.data.total ? (
            <p className="muted">
              Showing the first {tags.data.tags.length} of {tags.data.total} tags; the
              artifact&apos;s analysis.json holds them all.
            </p>
          ) : null}
          {shown.length === 0 ? (
            <p className="muted">No tag matches.</p>
          ) : (
            <table className="result-table" aria-label="Lintian tags">
              <TableHead columns={['Severity', 'Tag', 'Package', 'Note']} />
              <tbody>
                {shown.map((tag, i) => (
                  <tr key={i} data-testid="lintian-tag-row">
                    <td>
                      <span className={severityClass(tag.severity)}>{tag.severity}</span>
                    </td>
                    <td className="mono">{tag.tag}</td>
                    <td className="mono">{tag.package}</td>
                    <td className="mono">{tag.note}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </div>
  );
}
