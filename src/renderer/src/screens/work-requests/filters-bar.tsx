import { Bookmark, Search, X } from 'lucide-react';
import { useState } from 'react';
import { TASK_TYPES, WORK_REQUEST_RESULTS, WORK_REQUEST_STATUSES } from '../../../../shared/models';
import { activeFilterCount, useViewsStore } from './views-store';

function label(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
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
      <select
        className="select"
        aria-label="Status"
        value={filters.status}
        onChange={(e) => {
          setFilters({ status: e.target.value });
        }}
      >
        <option value="">Any status</option>
        {WORK_REQUEST_STATUSES.map((s) => (
          <option key={s} value={s}>
            {label(s)}
          </option>
        ))}
      </select>
      <select
        className="select"
        aria-label="Result"
        value={filters.result}
        onChange={(e) => {
          setFilters({ result: e.target.value });
        }}
      >
        <option value="">Any result</option>
        {WORK_REQUEST_RESULTS.filter((r) => r !== '').map((r) => (
          <option key={r} value={r}>
            {label(r)}
          </option>
        ))}
      </select>
      <select
        className="select"
        aria-label="Task type"
        value={filters.taskType}
        onChange={(e) => {
          setFilters({ taskType: e.target.value });
        }}
      >
        <option value="">Any type</option>
        {TASK_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        className="select"
        aria-label="Task"
        value={filters.taskName}
        onChange={(e) => {
          setFilters({ taskName: e.target.value });
        }}
      >
        <option value="">Any task</option>
        {[...new Set([...props.taskNames, filters.taskName].filter(Boolean))].sort().map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        className="select"
        aria-label="Workspace"
        value={filters.workspace}
        onChange={(e) => {
          setFilters({ workspace: e.target.value });
        }}
      >
        <option value="">Any workspace</option>
        {[...new Set([...props.workspaces, filters.workspace].filter(Boolean))].sort().map((w) => (
          <option key={w} value={w}>
            {w}
          </option>
        ))}
      </select>
      <label className="wr-check">
        <input
          type="checkbox"
          checked={filters.rootOnly}
          onChange={(e) => {
            setFilters({ rootOnly: e.target.checked });
          }}
        />
        Root workflows only
      </label>
      <label
        className="wr-check"
        title={props.mineUnavailable ?? 'Only work requests you created'}
        data-unavailable={props.mineUnavailable !== undefined && !filters.mine}
      >
        <input
          type="checkbox"
          checked={filters.mine}
          disabled={props.mineUnavailable !== undefined && !filters.mine}
          onChange={(e) => {
            setFilters({ mine: e.target.checked });
          }}
        />
        Mine
      </label>
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
