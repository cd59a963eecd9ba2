import { useVirtualizer } from '@tanstack/react-virtual';
import { Inbox } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { EmptyState } from '@renderer/components/empty-state';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { formatDuration } from '@renderer/components/format';
import { LoadingState } from '@renderer/components/loading-state';
import { StatusBadge } from '@renderer/components/status-badge';
import { TimeAgo } from '@renderer/components/time-ago';
import { useWhoami } from '@renderer/queries/session';
import { FiltersBar, SavedViews } from './filters-bar';
import {
  canTellMine,
  creatorName,
  isMine,
  matchesFilters,
  rootOf,
  taskSummary,
  type Me,
} from './model';
import { useLiveRows, useWorkRequestPages } from '@renderer/queries/work-requests';
import { useViewsStore } from './views-store';
import { useOpen } from '@renderer/kit/navigation';

const ROW_HEIGHT = 32;
/** With client-side filters, pages load by themselves up to here, then on request. */
const AUTO_PAGES_WHEN_FILTERED = 20;

/** The live list of work requests: newest first, paged as it scrolls, virtualised. */
export function WorkRequestList(): React.JSX.Element {
  const filters = useViewsStore((s) => s.filters);
  const query = useWorkRequestPages({
    status: filters.status,
    taskType: filters.taskType,
    rootOnly: filters.rootOnly,
  });
  const [flashing, setFlashing] = useState<ReadonlySet<number>>(new Set());
  const onUpdated = useCallback((id: number) => {
    setFlashing((s) => new Set([...s, id]));
    setTimeout(() => {
      setFlashing((s) => new Set([...s].filter((x) => x !== id)));
    }, 1700);
  }, []);
  useLiveRows(onUpdated);

  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const session = useWhoami();
  const me = useMemo<Me>(
    () => ({
      username: session.data?.user ?? null,
      userId: session.data?.userId ?? null,
      creators: Object.fromEntries(
        (query.data?.pages ?? []).flatMap((p) => Object.entries(p.creators)),
      ),
    }),
    [session.data, query.data],
  );
  const rows = useMemo(
    () => loaded.filter((wr) => matchesFilters(wr, filters, me)),
    [loaded, filters, me],
  );
  const mineUnavailable =
    query.data && !canTellMine(me, loaded)
      ? 'This server does not say who created a work request (Debusine 0.11 and earlier): the app learns your user id when you start a work request or workflow from it.'
      : undefined;
  const taskNames = useMemo(() => [...new Set(loaded.map((wr) => wr.task_name))], [loaded]);
  const workspaces = useMemo(() => [...new Set(loaded.map((wr) => wr.workspace))], [loaded]);
  const clientFiltered =
    filters.search.trim() !== '' ||
    filters.mine ||
    !!filters.result ||
    !!filters.taskName ||
    !!filters.workspace;

  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual re-renders on scroll by design; the compiler just skips memoising here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const pageCount = query.data?.pages.length ?? 0;
  const autoLoad = !clientFiltered || pageCount < AUTO_PAGES_WHEN_FILTERED;
  const { hasNextPage, isFetchingNextPage, isFetching, fetchNextPage } = query;
  useEffect(() => {
    // Never while the list refreshes: cancelling a refresh would put back the rows from
    // before it, dropping what completions brought in meanwhile.
    if (!hasNextPage || isFetching || !autoLoad) return;
    if (lastIndex >= rows.length - 20) void fetchNextPage({ cancelRefetch: false });
  }, [lastIndex, rows.length, hasNextPage, isFetching, autoLoad, fetchNextPage]);

  return (
    <div className="wr-panel">
      <FiltersBar taskNames={taskNames} workspaces={workspaces} mineUnavailable={mineUnavailable} />
      <SavedViews />
      {query.isPending ? (
        <LoadingState label="Loading work requests…" />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div className="wr-table">
          <div
            className="wr-grid-table"
            role="table"
            aria-label="Work requests"
            aria-rowcount={rows.length + 1}
            data-testid="work-request-list"
          >
            <div role="rowgroup">
              <div className="wr-row head" role="row" aria-rowindex={1}>
                <span role="columnheader">ID</span>
                <span role="columnheader">Task</span>
                <span role="columnheader">Details</span>
                <span role="columnheader">Workspace</span>
                <span role="columnheader">By</span>
                <span role="columnheader">Status</span>
                <span role="columnheader">Created</span>
                <span role="columnheader" className="wr-num">
                  Duration
                </span>
              </div>
            </div>
            <div
              className="wr-body"
              ref={scrollRef}
              // Kept mounted when empty: the virtualiser holds on to its scroll element.
              role={rows.length > 0 ? 'rowgroup' : undefined}
              hidden={rows.length === 0}
              data-testid="work-request-scroller"
            >
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {items.map((item) => {
                  const wr = rows[item.index];
                  if (!wr) return null;
                  return (
                    <Row
                      key={wr.id}
                      wr={wr}
                      creator={creatorName(wr, me)}
                      me={isMine(wr, me)}
                      index={item.index}
                      top={item.start}
                      flash={flashing.has(wr.id)}
                    />
                  );
                })}
              </div>
            </div>
          </div>
          {rows.length === 0 ? (
            <EmptyState icon={Inbox} title="No work requests match">
              {clientFiltered && hasNextPage
                ? `None of the ${String(loaded.length)} loaded work requests match; load more or change the filters.`
                : 'Change the filters, or start work from the Upload area.'}
            </EmptyState>
          ) : null}
          <div className="wr-footer" role="status" aria-live="polite" data-testid="list-footer">
            <span>
              {clientFiltered
                ? `${String(rows.length)} of ${String(loaded.length)} loaded match`
                : `${String(loaded.length)} loaded`}
              {hasNextPage ? '' : ' · all loaded'}
            </span>
            {isFetchingNextPage ? <span>Loading more…</span> : null}
            {hasNextPage && !autoLoad && !isFetchingNextPage ? (
              <button
                type="button"
                className="button small"
                onClick={() => void fetchNextPage({ cancelRefetch: false })}
              >
                Load more
              </button>
            ) : null}
          </div>
        </div>
      )}
    </div>
  );
}

function Row(props: {
  wr: WorkRequestResponse;
  creator: string | undefined;
  me: boolean;
  index: number;
  top: number;
  flash: boolean;
}): React.JSX.Element {
  const { openWorkRequest } = useOpen();
  const { wr } = props;
  const summary = taskSummary(wr);
  const root = rootOf(wr);
  return (
    <div
      className={props.flash ? 'wr-row flash' : 'wr-row'}
      role="row"
      aria-rowindex={props.index + 2}
      data-testid={`wr-row-${String(wr.id)}`}
      data-status={wr.status}
      data-result={wr.result}
      style={{ transform: `translateY(${String(props.top)}px)`, height: ROW_HEIGHT }}
      onClick={() => {
        openWorkRequest(wr.id);
      }}
    >
      <span role="cell">
        <button
          type="button"
          className="link-button wr-id"
          aria-label={`Work request ${String(wr.id)}, ${wr.task_name}`}
          onClick={(e) => {
            e.stopPropagation();
            openWorkRequest(wr.id);
          }}
        >
          #{wr.id}
        </button>
      </span>
      <span role="cell" className="wr-task">
        <span className="wr-task-name">{wr.task_name}</span>
        <span className="wr-type">{wr.task_type}</span>
      </span>
      <span role="cell" className="wr-sub" title={summary}>
        {root ? `step of #${String(root)}` : ''}
        {root && summary ? ' · ' : ''}
        {summary}
      </span>
      <span role="cell">{wr.workspace}</span>
      <span role="cell" className="wr-creator" title={props.creator}>
        {props.creator ?? <span className="muted">{props.me ? 'you' : '—'}</span>}
      </span>
      <span role="cell">
        <StatusBadge status={wr.status} result={wr.result} />
      </span>
      <span role="cell">
        <TimeAgo iso={wr.created_at} />
      </span>
      <span role="cell" className="wr-num">
        {formatDuration(wr.duration)}
      </span>
    </div>
  );
}
