import { CircleAlert, CircleCheck, CircleMinus, FileQuestion } from 'lucide-react';
import type { LocalArtifactDraft, LocalArtifactProblem } from '@shared/contract';
import { formatBytes } from '@renderer/components/format';
import { baseName } from '@shared/base-name';
import { visibleText } from '@shared/visible-text';

interface Row {
  key: string;
  /** The staged file, when there is one (a missing file has none). */
  fileId: string | null;
  name: string;
  size: number | null;
  /** In the artifact as built. */
  included: boolean;
  /** Left out by the user (the checkbox). */
  userExcluded: boolean;
  problems: LocalArtifactProblem[];
  /** The user's folder a file not dropped was found in, beside the .changes or .dsc. */
  folder?: string;
}

function concerns(problem: LocalArtifactProblem, names: string[]): boolean {
  if (!problem.file) return false;
  const file = problem.file;
  return names.some((n) => n === file || baseName(n) === baseName(file));
}

/**
 * Every file of a draft, the ones it takes and the ones it leaves out, with each failing
 * rule next to the file it concerns; files a rule needs but that were not dropped get a
 * row of their own.
 */
export function rowsOf(draft: LocalArtifactDraft): {
  rows: Row[];
  general: LocalArtifactProblem[];
} {
  const nameOf = new Map(draft.dropped.map((f) => [f.id, f]));
  const used = new Set<LocalArtifactProblem>();
  const take = (names: string[]): LocalArtifactProblem[] => {
    const found = draft.problems.filter((p) => concerns(p, names));
    for (const p of found) used.add(p);
    return found;
  };
  const rows: Row[] = draft.files.map((f) => ({
    key: f.fileId,
    fileId: f.fileId,
    name: f.pathInArtifact,
    size: f.size,
    included: true,
    userExcluded: false,
    problems: take([f.pathInArtifact, nameOf.get(f.fileId)?.name ?? f.pathInArtifact]),
  }));
  for (const id of draft.excludedFileIds) {
    const file = nameOf.get(id);
    rows.push({
      key: id,
      fileId: id,
      name: file?.name ?? id,
      size: file?.size ?? null,
      included: false,
      userExcluded: draft.userExcludedFileIds.includes(id),
      problems: take([file?.name ?? id]),
    });
  }
  for (const f of draft.beside) {
    rows.push({
      key: `beside:${f.name}`,
      fileId: null,
      name: f.name,
      size: f.size,
      included: true,
      userExcluded: false,
      problems: take([f.name]),
      folder: f.folder,
    });
  }
  // Problems about files that are not there at all (listed in a .changes, not dropped).
  const missing = new Map<string, LocalArtifactProblem[]>();
  for (const p of draft.problems) {
    if (used.has(p) || !p.file) continue;
    missing.set(p.file, [...(missing.get(p.file) ?? []), p]);
    used.add(p);
  }
  for (const [name, problems] of missing) {
    rows.push({
      key: `missing:${name}`,
      fileId: null,
      name,
      size: null,
      included: false,
      userExcluded: false,
      problems,
    });
  }
  return { rows, general: draft.problems.filter((p) => !used.has(p)) };
}

export function DraftFiles(props: {
  draft: LocalArtifactDraft;
  busy: boolean;
  onToggle: (fileId: string, include: boolean) => void;
}): React.JSX.Element {
  const { rows } = rowsOf(props.draft);
  // Without a built artifact nothing is taken yet: files are not "left out", just unchecked.
  const built = props.draft.files.length > 0;
  return (
    <table className="table draft-files" aria-label="Files of this artifact">
      <thead>
        <tr>
          <th scope="col" className="col-include">
            Include
          </th>
          <th scope="col">File</th>
          <th scope="col" className="num">
            Size
          </th>
          <th scope="col">Check</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.key}
            className={row.problems.length > 0 ? 'has-problem' : undefined}
            data-testid="draft-file"
          >
            <td className="col-include">
              {row.fileId ? (
                <input
                  type="checkbox"
                  checked={!row.userExcluded}
                  disabled={props.busy}
                  aria-label={`Include ${visibleText(row.name)}`}
                  onChange={(event) => {
                    if (row.fileId) props.onToggle(row.fileId, event.target.checked);
                  }}
                />
              ) : null}
            </td>
            <td className={row.included ? 'mono file-name' : 'mono muted file-name'}>
              {visibleText(row.name)}
            </td>
            <td className="mono num">{row.size === null ? '—' : formatBytes(row.size)}</td>
            <td>
              {row.problems.length > 0 ? (
                <ul className="problems" data-testid="file-problems">
                  {row.problems.map((p) => (
                    <li key={`${p.rule}:${p.message}`} className="problem">
                      {row.fileId ? (
                        <CircleAlert size={14} aria-hidden="true" className="tone-danger" />
                      ) : (
                        <FileQuestion size={14} aria-hidden="true" className="tone-danger" />
                      )}
                      <span>
                        <span className="tone-danger">{row.fileId ? 'Problem' : 'Missing'}:</span>{' '}
                        {p.message} <span className="mono muted rule">{p.rule}</span>
                      </span>
                    </li>
                  ))}
                </ul>
              ) : row.included ? (
                <span className="status-badge tone-success">
                  <CircleCheck size={14} aria-hidden="true" />{' '}
                  {row.folder === undefined ? 'OK' : `OK, found in ${visibleText(row.folder)}`}
                </span>
              ) : (
                <span className="status-badge tone-muted">
                  <CircleMinus size={14} aria-hidden="true" />{' '}
                  {row.userExcluded
                    ? 'Left out'
                    : built
                      ? 'Not taken by this kind'
                      : 'Not checked: fix the problems'}
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
