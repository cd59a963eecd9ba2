import { ExternalLink, X } from 'lucide-react';
import { useState } from 'react';
import { useBridge } from '@renderer/bridge';
import { CheckField } from '@renderer/components/check-field';
import { useCurrentWorkspace } from '@renderer/kit/current-workspace';
import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { useWebPage } from '@renderer/queries/work-requests';
import { WORK_REQUEST_RESULTS, WORK_REQUEST_STATUSES } from '@shared/models';
import { DEFAULT_SCOPE } from '@shared/web-paths';
import {
  NO_WORKFLOW_FILTERS,
  RUNTIME_STATUSES,
  activeWorkflowFilterCount,
  withRuntimeStatus,
  withStatus,
  workflowListWebPath,
} from '@shared/results/workflow-list';
import { FilterSelect, label, seen } from './filters-bar';
import { useViewsStore } from './views-store';

/**
 * The Workflows tab's facets, the web UI's own (status, runtime status, result, template,
 * started by, with failed work requests), and the button that opens the same view in the
 * web UI. `templates` and `users`: the names seen in the loaded workflows.
 */
export function WorkflowFiltersBar(props: {
  templates: string[];
  users: string[];
}): React.JSX.Element {
  const filters = useViewsStore((s) => s.workflowFilters);
  const setFilters = useViewsStore((s) => s.setWorkflowFilters);
  const count = activeWorkflowFilterCount(filters);
  return (
    <div className="wr-filters" role="search" aria-label="Filter workflows">
      <FilterSelect
        label="Status"
        any="Any status"
        value={filters.status}
        options={WORK_REQUEST_STATUSES.map((s) => [s, label(s)])}
        onChange={(value) => {
          setFilters(withStatus(filters, value));
        }}
      />
      <FilterSelect
        label="Runtime status"
        any="Any runtime status"
        value={filters.runtimeStatus}
        // The web's words: a runtime status is that of a running workflow's steps.
        options={RUNTIME_STATUSES.map(([value, text]) => [value, `Running (children: ${text})`])}
        onChange={(value) => {
          setFilters(withRuntimeStatus(filters, value));
        }}
      />
      <FilterSelect
        label="Result"
        any="Any result"
        value={filters.result}
        options={WORK_REQUEST_RESULTS.filter((r) => r !== '').map((r) => [r, label(r)])}
        onChange={(result) => {
          setFilters({ ...filters, result });
        }}
      />
      <FilterSelect
        label="Workflow template"
        any="Any template"
        value={filters.template}
        options={seen(props.templates, filters.template)}
        onChange={(template) => {
          setFilters({ ...filters, template });
        }}
      />
      <FilterSelect
        label="Started by"
        any="Anyone"
        value={filters.startedBy}
        options={seen(props.users, filters.startedBy)}
        onChange={(startedBy) => {
          setFilters({ ...filters, startedBy });
        }}
      />
      <CheckField
        className="wr-check"
        checked={filters.withFailed}
        onCheckedChange={(withFailed) => {
          setFilters({ ...filters, withFailed });
        }}
      >
        With failed work requests
      </CheckField>
      {count > 0 ? (
        <button
          type="button"
          className="button small ghost"
          onClick={() => {
            setFilters(NO_WORKFLOW_FILTERS);
          }}
        >
          <X size={13} aria-hidden="true" />
          Clear {count} {count === 1 ? 'filter' : 'filters'}
        </button>
      ) : null}
      <OpenInBrowser />
    </div>
  );
}

/**
 * Opens the web UI's workflow list of the current workspace with the same facets. The
 * address is main's for the active server, kept under its scope (useWebPage) and not used
 * while it is read again, so the button opens the page of the server whose list is shown;
 * without a workspace there is no such list.
 */
function OpenInBrowser(): React.JSX.Element {
  const bridge = useBridge();
  const filters = useViewsStore((s) => s.workflowFilters);
  const { workspace } = useCurrentWorkspace();
  const scope = useAppQuery(serverQueries.active).data?.scope ?? DEFAULT_SCOPE;
  const path = workspace === null ? '' : workflowListWebPath(scope, workspace, filters);
  const webUrl = useWebPage(path, workspace !== null);
  // Not while it is read again: after a switch of servers every address is, and what the
  // cache held until then may be from before.
  const url = webUrl.isFetching ? undefined : webUrl.data;
  const [failure, setFailure] = useState<string | null>(null);
  const problem = webUrl.isError ? webUrl.error.message : failure;
  return (
    <>
      <button
        type="button"
        className="button small"
        disabled={url === undefined}
        title={
          workspace === null
            ? 'No workspace chosen: the web lists the workflows of one workspace'
            : `The workflows of ${workspace} in the web UI, with these filters`
        }
        onClick={() => {
          if (url === undefined) return;
          setFailure(null);
          bridge.app.openExternal({ url }).catch((error: unknown) => {
            setFailure(error instanceof Error ? error.message : String(error));
          });
        }}
      >
        <ExternalLink size={13} aria-hidden="true" />
        Open this view in the browser
      </button>
      {problem === null ? null : (
        <span className="inline-error" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
