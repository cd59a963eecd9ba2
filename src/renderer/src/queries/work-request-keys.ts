/**
 * The keys of the active server's work requests, and the server-side filters of the paged
 * lists (what `workRequests.page` takes).
 */
import type { InfiniteData, QueryKey } from '@tanstack/react-query';
import type { WorkRequestPage } from '@shared/contract';
import type { Scope } from './define';

/** The server-side part of the list's filters: what `workRequests.page` takes. */
export interface ServerFilters {
  status?: string;
  taskType?: string;
  rootOnly?: boolean;
}

export type Pages = InfiniteData<WorkRequestPage, string | null>;

export const workRequestKeys = {
  all: (scope: Scope): QueryKey => [scope, 'workRequests'],
  lists: (scope: Scope): QueryKey => [scope, 'workRequests', 'list'],
  list: (scope: Scope, filters: object): QueryKey => [scope, 'workRequests', 'list', filters],
  /** The paged lists' keys carry `view: 'pages'`. */
  pages: (scope: Scope, filters: ServerFilters): QueryKey =>
    workRequestKeys.list(scope, { view: 'pages', ...filters }),
  isPagedList: (queryKey: QueryKey): boolean =>
    queryKey[2] === 'list' && (queryKey[3] as { view?: unknown } | undefined)?.view === 'pages',
  /** A workflow's tree: its root and every step (queries/workflow-steps.ts). */
  steps: (scope: Scope, rootId: number): QueryKey =>
    workRequestKeys.list(scope, { view: 'steps', rootId }),
  /** The root whose tree this key is, or null for any other key. */
  treeRoot: (queryKey: QueryKey): number | null => {
    if (queryKey[2] !== 'list') return null;
    const filters = queryKey[3] as { view?: unknown; rootId?: unknown } | undefined;
    return filters?.view === 'steps' && typeof filters.rootId === 'number' ? filters.rootId : null;
  },
  detail: (scope: Scope, id: number): QueryKey => [scope, 'workRequests', 'detail', id],
  watch: (scope: Scope): QueryKey => [scope, 'watch'],
  /** The notifications main showed for this server. */
  notifications: (scope: Scope): QueryKey => [scope, 'notifications', 'recent'],
};

/** The first page of a paged list: the filters, as `workRequests.page` takes them. */
export function firstPageArgs(filters: ServerFilters): ServerFilters {
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.taskType ? { taskType: filters.taskType } : {}),
    ...(filters.rootOnly ? { rootOnly: true } : {}),
  };
}
