import { Bookmark, Search, X } from 'lucide-react';
import { useState } from 'react';
import { CheckField } from '@renderer/components/check-field';
import { TASK_TYPES, WORK_REQUEST_RESULTS, WORK_REQUEST_STATUSES } from '@shared/models';
import { activeFilterCount, useViewsStore, type ListFilters } from './views-store';

export function label(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** The values seen in the loaded rows, plus the one chosen (it may not be loaded). */
export function seen(values: string[], chosen: string): [string, string][] {
  return [...new Set([...values, chosen].filter(Boolean))].sort().map((v) => [v, v]);
}

/** One filter: "any" (the empty value) or one of `options` ([value, label]). */
export function FilterSelect(props: {
  label: string;
  any: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
}): React.JSX.Element {
  return (
    <select
      className="select"
      aria-label={props.label}
      value={props.value}
      onChange={(e) => {
        props.onChange(e.target.value);
      }}
    >
      <option value="">{props.any}</option>
      {props.options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  );
}

/** The filters chosen from a list; each is "" for "any". */
type SelectField = 'status' | 'result' | 'taskType' | 'taskName' | 'workspace';

/** One select of the bar: which filter it sets and what it offers ([value, label]). */
interface SelectFilter {
  field: SelectField;
  label: string;
  any: string;
  options: readonly (readonly [string, string])[];
}

function patchOf(field: SelectField, value: string): Partial<ListFilters> {
  const patch: Partial<ListFilters> = {};
  patch[field] = value;
  return patch;
}

/** Filters, text search and saved views above the list. */
export function FiltersBar(props: {
  taskNames: string[];
  workspaces: string[];
  /** Why "Mine" cannot be told yet; undefined when it can. */
  mineUnavailable?: string | undefined;
}): React.JSX.Element {
  const filters = useViewsStore((s) => s.filters);
  const setFilters = useViewsStore((s) => s.setFilters);
  const clearFilters = useViewsStore((s) => s.clearFilters);
  const count = activeFilterCount(filters);
  const selects: readonly SelectFilter[] = [
    {
      field: 'status',
      label: 'Status',
      any: 'Any status',
      options: WORK_REQUEST_STATUSES.map((s) => [s, label(s)]),
    },
    {
      field: 'result',
      label: 'Result',
      any: 'Any result',
      options: WORK_REQUEST_RESULTS.filter((r) => r !== '').map((r) => [r, label(r)]),
    },
    {
      field: 'taskType',
      label: 'Task type',
      any: 'Any type',
      options: TASK_TYPES.map((t) => [t, t]),
    },
    {
      field: 'taskName',
      label: 'Task',
      any: 'Any task',
      options: seen(props.taskNames, filters.taskName),
    },
    {
      field: 'workspace',
      label: 'Workspace',
      any: 'Any workspace',
      options: seen(props.workspaces, filters.workspace),
    },
  ];
  return (
    <div className="wr-filters" role="search" aria-label="Filter work requests">
      <span className="wr-search">
        <Search size={14} aria-hidden="true" />
        <input
          className="input"
          type="search"
          placeholder="Search id, task, data…"
          aria-label="Search work requests"
          value={filters.search}
          onChange={(e) => {
            setFilters({ search: e.target.value });
          }}
        />
      </span>
      {selects.map((select) => (
        <FilterSelect
          key={select.field}
          label={select.label}
          any={select.any}
          value={filters[select.field]}
          options={select.options}
          onChange={(value) => {
            setFilters(patchOf(select.field, value));
          }}
        />
      ))}
      <CheckField
        className="wr-check"
        checked={filters.rootOnly}
        onCheckedChange={(rootOnly) => {
          setFilters({ rootOnly });
        }}
      >
        Root workflows only
      </CheckField>
      <CheckField
        className="wr-check"
        title={props.mineUnavailable ?? 'Only work requests you created'}
        data-unavailable={props.mineUnavailable !== undefined && !filters.mine}
        checked={filters.mine}
        disabled={props.mineUnavailable !== undefined && !filters.mine}
        onCheckedChange={(mine) => {
          setFilters({ mine });
        }}
      >
        Mine
      </CheckField>
      {count > 0 ? (
        <button type="button" className="button small ghost" onClick={clearFilters}>
          <X size={13} aria-hidden="true" />
          Clear {count} {count === 1 ? 'filter' : 'filters'}
        </button>
      ) : null}
    </div>
  );
}

/** The saved views as chips; the current filters can be saved as a new one. */
export function SavedViews(): React.JSX.Element {
  const views = useViewsStore((s) => s.views);
  const activeViewId = useViewsStore((s) => s.activeViewId);
  const applyView = useViewsStore((s) => s.applyView);
  const saveView = useViewsStore((s) => s.saveView);
  const deleteView = useViewsStore((s) => s.deleteView);
  const clearFilters = useViewsStore((s) => s.clearFilters);
  const filters = useViewsStore((s) => s.filters);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  return (
    <div className="wr-views" aria-label="Saved views" role="group">
      <span className="muted">Views:</span>
      <button
        type="button"
        className="wr-chip"
        aria-pressed={activeViewId === null && activeFilterCount(filters) === 0}
        onClick={clearFilters}
      >
        All
      </button>
      {views.map((view) => (
        <span key={view.id} className="wr-chip" data-active={view.id === activeViewId}>
          <button
            type="button"
            className="wr-chip-remove"
            style={{ color: 'inherit' }}
            aria-pressed={view.id === activeViewId}
            onClick={() => {
              applyView(view.id);
            }}
          >
            {view.name}
          </button>
          <button
            type="button"
            className="wr-chip-remove"
            aria-label={`Delete view ${view.name}`}
            title="Delete this view"
            onClick={() => {
              deleteView(view.id);
            }}
          >
            <X size={12} aria-hidden="true" />
          </button>
        </span>
      ))}
      {naming ? (
        <form
          className="wr-views"
          style={{ margin: 0 }}
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) saveView(name.trim());
            setNaming(false);
            setName('');
          }}
        >
          <input
            className="input"
            style={{ height: 24, fontSize: 12 }}
            aria-label="View name"
            placeholder="View name"
            // The field appears because the user asked for it: focusing it is expected.
            autoFocus
            value={name}
            onChange={(e) => {
              setName(e.target.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setNaming(false);
            }}
          />
          <button type="submit" className="button small primary">
            Save
          </button>
        </form>
      ) : (
        <button
          type="button"
          className="button small ghost"
          disabled={activeFilterCount(filters) === 0}
          title={activeFilterCount(filters) === 0 ? 'Set some filters first' : undefined}
          onClick={() => {
            setNaming(true);
          }}
        >
          <Bookmark size={13} aria-hidden="true" />
          Save view
        </button>
      )}
    </div>
  );
}
