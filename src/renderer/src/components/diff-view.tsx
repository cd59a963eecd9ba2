/**
 * A line diff of two texts (the server's version and the edit), unified, as a table: each
 * changed line says "added" or "removed" in words too, so the change is not told by colour
 * alone. Unchanged runs longer than a few lines fold to a count.
 */
import { diffLines } from 'diff';
import { useMemo } from 'react';
import './diff-view.css';
import { TableHead } from './table-head';

interface Row {
  kind: 'same' | 'added' | 'removed' | 'fold';
  oldNo: number | null;
  newNo: number | null;
  text: string;
}

const CONTEXT = 3;

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function diffRows(before: string, after: string): Row[] {
  const rows: Row[] = [];
  let oldNo = 1;
  let newNo = 1;
  for (const part of diffLines(before, after)) {
    for (const text of splitLines(part.value)) {
      if (part.added) rows.push({ kind: 'added', oldNo: null, newNo: newNo++, text });
      else if (part.removed) rows.push({ kind: 'removed', oldNo: oldNo++, newNo: null, text });
      else rows.push({ kind: 'same', oldNo: oldNo++, newNo: newNo++, text });
    }
  }
  // Fold unchanged runs, keeping a little context around each change.
  const near = rows.map((_, i) =>
    rows
      .slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1)
      .some((r) => r.kind === 'added' || r.kind === 'removed'),
  );
  const out: Row[] = [];
  let hidden = 0;
  rows.forEach((row, i) => {
    if (row.kind === 'same' && !near[i]) {
      hidden++;
      return;
    }
    if (hidden > 0) out.push({ kind: 'fold', oldNo: null, newNo: null, text: String(hidden) });
    hidden = 0;
    out.push(row);
  });
  if (hidden > 0) out.push({ kind: 'fold', oldNo: null, newNo: null, text: String(hidden) });
  return out;
}

export function DiffView(props: {
  before: string;
  after: string;
  /** What is compared, for the caption: "Changes to collection sid@debian:suite". */
  label: string;
  beforeLabel?: string;
  afterLabel?: string;
}): React.JSX.Element {
  const rows = useMemo(() => diffRows(props.before, props.after), [props.before, props.after]);
  const added = rows.filter((r) => r.kind === 'added').length;
  const removed = rows.filter((r) => r.kind === 'removed').length;
  return (
    <div className="diff-view" data-testid="diff-view">
      <div className="diff-summary">
        <span className="diff-legend">
          <span className="muted">{props.beforeLabel ?? 'On the server'}</span>
          <span aria-hidden="true"> → </span>
          <span className="muted">{props.afterLabel ?? 'Your edit'}</span>
        </span>
        <span className="diff-count tone-success">+{added}</span>
        <span className="diff-count tone-danger">−{removed}</span>
      </div>
      {added + removed === 0 ? (
        <p className="diff-empty">No changes.</p>
      ) : (
        <div className="diff-scroll" tabIndex={0} role="region" aria-label={props.label}>
          <table className="diff-table">
            <caption className="visually-hidden">
              {props.label}: {added} lines added, {removed} removed
            </caption>
            <TableHead
              className="visually-hidden"
              columns={['Old line', 'New line', 'Change', 'Text']}
            />
            <tbody>
              {rows.map((row, i) =>
                row.kind === 'fold' ? (
                  <tr key={i} className="diff-fold">
                    <td colSpan={4}>
                      {row.text} unchanged {row.text === '1' ? 'line' : 'lines'}
                    </td>
                  </tr>
                ) : (
                  <tr key={i} className={`diff-${row.kind}`}>
                    <td className="diff-no">{row.oldNo ?? ''}</td>
                    <td className="diff-no">{row.newNo ?? ''}</td>
                    <td className="diff-sign">
                      <span aria-hidden="true">
                        {row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ' '}
                      </span>
                      <span className="visually-hidden">
                        {row.kind === 'added' ? 'added' : row.kind === 'removed' ? 'removed' : ''}
                      </span>
                    </td>
                    <td className="diff-text">{row.text}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
