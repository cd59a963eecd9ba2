/**
 * Searching a log: main searches the whole file (the renderer does not have it) and says
 * how many lines match and which one is next; the bar shows "3 of 120" and steps with
 * Enter / Shift+Enter (F3 / Shift+F3 from anywhere in the viewer). A search forwards shows
 * its line as soon as main finds it, and the count once main has gone through the file.
 */
import { ArrowDown, ArrowUp, CaseSensitive, Regex, Search } from 'lucide-react';
import { forwardRef, useCallback, useId, useRef, useState } from 'react';
import type { LogSearchResult, SearchUntil } from '@shared/log-types';
import type { LogSearchQuery } from '@renderer/queries/logs';
import { messageOf } from './messages';
import { ToggleButton } from './toggle-button';

export type SearchFn = (
  query: LogSearchQuery,
  fromLine: number,
  direction: 'next' | 'previous',
  until: SearchUntil,
) => Promise<LogSearchResult>;

export interface SearchState {
  query: LogSearchQuery;
  setQuery: (query: LogSearchQuery) => void;
  result: LogSearchResult | null;
  error: string | null;
  busy: boolean;
  /** Goes to the next (or previous) matching line, from the match shown or from `from`. */
  step: (direction: 'next' | 'previous', from: number, totalLines: number) => void;
}

/** The search's state; `onFound` scrolls to the line found. */
export function useSearchState(search: SearchFn, onFound: (line: number) => void): SearchState {
  const [query, setQueryState] = useState<LogSearchQuery>({
    query: '',
    regex: false,
    caseSensitive: false,
  });
  const [result, setResult] = useState<LogSearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Steps run one after the other, each from the match the one before it found: Enter
  // pressed five times quickly goes five matches on, not one five times.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const shown = useRef<LogSearchResult | null>(null);
  /** Counts the queries: a step for an older one finds nothing to show. */
  const generation = useRef(0);

  const setQuery = useCallback((next: LogSearchQuery) => {
    setQueryState(next);
    // A new query starts again from where the view is, not from the old match.
    generation.current++;
    shown.current = null;
    setResult(null);
    setError(null);
  }, []);

  /** Asks main for the whole count of a match shown before it had one. */
  const count = useCallback(
    (found: LogSearchResult, start: number, direction: 'next' | 'previous') => {
      const asked = generation.current;
      // Only while that match is still the one shown: a later step shows its own count.
      const current = (): boolean => asked === generation.current && shown.current === found;
      search(query, start, direction, 'counted').then(
        (whole) => {
          if (!current()) return;
          shown.current = whole;
          setResult(whole);
        },
        (failure: unknown) => {
          if (current()) setError(messageOf(failure));
        },
      );
    },
    [query, search],
  );

  const step = useCallback(
    (direction: 'next' | 'previous', from: number, totalLines: number) => {
      if (query.query === '' || totalLines === 0) return;
      const asked = generation.current;
      setBusy(true);
      const run = async (): Promise<void> => {
        if (asked !== generation.current) return;
        const current = shown.current?.line ?? null;
        let start: number;
        if (current === null) start = from;
        else if (direction === 'next') start = current + 1 >= totalLines ? 0 : current + 1;
        else start = current === 0 ? totalLines - 1 : current - 1;
        try {
          const found = await search(query, start, direction, 'found');
          if (asked !== generation.current) return;
          shown.current = found;
          setResult(found);
          setError(null);
          if (found.line !== null) onFound(found.line);
          // Outside the queue: the next step need not wait for the count of this one.
          if (!found.counted) count(found, start, direction);
        } catch (failure) {
          if (asked !== generation.current) return;
          shown.current = null;
          setResult(null);
          setError(messageOf(failure));
        }
      };
      const next = queue.current.then(run);
      queue.current = next;
      void next.finally(() => {
        if (queue.current === next) setBusy(false);
      });
    },
    [query, search, onFound, count],
  );

  return { query, setQuery, result, error, busy, step };
}

/**
 * "3 of 120", "No matches", with "so far" while the file is still arriving; "3 of 3 or
 * more, counting…" while main is still going through the file.
 */
export function countLabel(result: LogSearchResult | null): string {
  if (result === null) return '';
  const soFar = result.complete ? '' : ' so far';
  if (result.matches === 0 || result.ordinal === null) return `No matches${soFar}`;
  const of = `${String(result.ordinal)} of ${result.matches.toLocaleString('en')}`;
  return result.counted ? `${of}${soFar}` : `${of} or more, counting…`;
}

/** The search's on/off options, each a flag of the query. */
const OPTIONS = [
  { flag: 'regex', label: 'Regular expression', icon: Regex },
  { flag: 'caseSensitive', label: 'Match case', icon: CaseSensitive },
] as const;

/** The previous/next buttons: the same control, one direction each. */
const STEPS = [
  { direction: 'previous', label: 'Previous match', keys: 'Shift+Enter, Shift+F3', Icon: ArrowUp },
  { direction: 'next', label: 'Next match', keys: 'Enter, F3', Icon: ArrowDown },
] as const;

export const SearchBar = forwardRef<
  HTMLInputElement,
  { state: SearchState; onStep: (direction: 'next' | 'previous') => void }
>(function SearchBar(props, ref) {
  const id = useId();
  const { state } = props;
  const label = countLabel(state.result);
  return (
    <div className="log-search" role="search">
      <Search size={13} aria-hidden="true" className="muted" />
      <label htmlFor={`${id}-q`} className="visually-hidden">
        Search the log
      </label>
      <input
        ref={ref}
        id={`${id}-q`}
        className="input mono"
        placeholder="Search"
        spellCheck={false}
        value={state.query.query}
        aria-invalid={state.error ? true : undefined}
        aria-describedby={`${id}-count`}
        onChange={(event) => {
          state.setQuery({ ...state.query, query: event.target.value });
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          props.onStep(event.shiftKey ? 'previous' : 'next');
        }}
      />
      {OPTIONS.map(({ flag, label: name, icon }) => (
        <ToggleButton
          key={flag}
          label={name}
          icon={icon}
          on={state.query[flag]}
          onToggle={() => {
            state.setQuery({ ...state.query, [flag]: !state.query[flag] });
          }}
        />
      ))}
      <span id={`${id}-count`} className="log-count muted" aria-live="polite">
        {state.error ?? (state.busy ? 'Searching…' : label)}
      </span>
      {STEPS.map(({ direction, label: name, keys, Icon }) => (
        <button
          key={direction}
          type="button"
          className="button small icon-only"
          aria-label={name}
          title={`${name} (${keys})`}
          disabled={state.query.query === ''}
          onClick={() => {
            props.onStep(direction);
          }}
        >
          <Icon size={14} aria-hidden="true" />
        </button>
      ))}
    </div>
  );
});
