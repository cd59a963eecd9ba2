/**
 * What main found in an sbuild log: the summary (status, failing stage, how long it took)
 * as a bar above the lines, and the outline (the boxed sections, the steps inside them,
 * the summary's fields) as a side panel whose sections fold.
 */
import { ChevronDown, ChevronRight, CircleAlert } from 'lucide-react';
import { useState } from 'react';
import type { SbuildLogAnalysis, SbuildOutlineEntry } from '@shared/log-types';
import { formatDuration } from '@renderer/components/format';

export function SummaryBar(props: {
  analysis: SbuildLogAnalysis;
  onJumpToError: (line: number) => void;
}): React.JSX.Element {
  const { summary, error } = props.analysis;
  const failed = summary.status !== null && summary.status !== 'successful';
  return (
    <div className="log-summary" role="group" aria-label="Build summary">
      <span>
        <span className="muted">Status </span>
        <strong className={failed ? 'tone-danger' : 'tone-success'}>
          {summary.status ?? 'unknown'}
        </strong>
      </span>
      {summary.failStage !== null ? (
        <span>
          <span className="muted">Fail-Stage </span>
          <strong className="mono">{summary.failStage}</strong>
        </span>
      ) : null}
      {summary.duration !== null || summary.buildTime !== null ? (
        <span>
          <span className="muted">Duration </span>
          {formatDuration(summary.duration ?? summary.buildTime)}
        </span>
      ) : null}
      {props.analysis.errorLineCount > 0 ? (
        <span className="muted">
          {props.analysis.errorLineCount.toLocaleString('en')} error line
          {props.analysis.errorLineCount === 1 ? '' : 's'}
        </span>
      ) : null}
      {error !== null ? (
        <button
          type="button"
          className="button small danger"
          title={error.text}
          onClick={() => {
            props.onJumpToError(error.line);
          }}
        >
          <CircleAlert size={13} aria-hidden="true" />
          Jump to the error
        </button>
      ) : null}
    </div>
  );
}

interface Section {
  head: SbuildOutlineEntry;
  children: SbuildOutlineEntry[];
}

/** Steps and summary lines go under the section (or package box) before them. */
export function sectionsOf(outline: readonly SbuildOutlineEntry[]): Section[] {
  const sections: Section[] = [];
  for (const entry of outline) {
    const current = sections.at(-1);
    if (entry.kind === 'section' || entry.kind === 'package' || current === undefined) {
      sections.push({ head: entry, children: [] });
    } else {
      current.children.push(entry);
    }
  }
  return sections;
}

export function OutlinePanel(props: {
  analysis: SbuildLogAnalysis;
  onGo: (line: number) => void;
}): React.JSX.Element {
  const sections = sectionsOf(props.analysis.outline);
  const [folded, setFolded] = useState<ReadonlySet<number>>(new Set());
  const toggle = (line: number): void => {
    setFolded((current) => {
      const next = new Set(current);
      if (next.has(line)) next.delete(line);
      else next.add(line);
      return next;
    });
  };
  return (
    <nav className="log-outline" aria-label="Outline">
      {sections.length === 0 ? <p className="muted">No sections found.</p> : null}
      <ul>
        {sections.map((section) => {
          const open = !folded.has(section.head.line);
          return (
            <li key={section.head.line}>
              <div className="outline-head">
                {section.children.length > 0 ? (
                  <button
                    type="button"
                    className="outline-fold"
                    aria-expanded={open}
                    aria-label={`${open ? 'Fold' : 'Unfold'} ${section.head.title}`}
                    onClick={() => {
                      toggle(section.head.line);
                    }}
                  >
                    {open ? (
                      <ChevronDown size={12} aria-hidden="true" />
                    ) : (
                      <ChevronRight size={12} aria-hidden="true" />
                    )}
                  </button>
                ) : (
                  <span className="outline-fold" aria-hidden="true" />
                )}
                <OutlineLink entry={section.head} onGo={props.onGo} />
              </div>
              {open && section.children.length > 0 ? (
                <ul>
                  {section.children.map((entry) => (
                    <li key={`${String(entry.line)}-${entry.title}`}>
                      <OutlineLink entry={entry} onGo={props.onGo} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function OutlineLink(props: {
  entry: SbuildOutlineEntry;
  onGo: (line: number) => void;
}): React.JSX.Element {
  const { entry } = props;
  return (
    <button
      type="button"
      className={`outline-entry kind-${entry.kind}`}
      title={`Line ${String(entry.line + 1)}${entry.date ? ` — ${entry.date}` : ''}`}
      onClick={() => {
        props.onGo(entry.line);
      }}
    >
      {entry.title}
    </button>
  );
}
