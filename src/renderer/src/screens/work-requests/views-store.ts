import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { NO_WORKFLOW_FILTERS, type WorkflowFilters } from '@shared/results/workflow-list';

/**
 * The work request list's UI state: the filters in use, the user's saved views, which tab
 * of the area is open, and the Workflows tab's facets. Server data stays in react-query;
 * this is what the user chose.
 */
export interface ListFilters {
  /** Server-side filters (the list endpoint takes them). */
  status: string;
  taskType: string;
  rootOnly: boolean;
  /** Client-side filters over the loaded rows (the server has no such filters). */
  /** Only work requests the signed-in user created. */
  mine: boolean;
  result: string;
  taskName: string;
  workspace: string;
  search: string;
}

export const NO_FILTERS: ListFilters = {
  status: '',
  taskType: '',
  rootOnly: false,
  mine: false,
  result: '',
  taskName: '',
  workspace: '',
  search: '',
};

export interface SavedView {
  id: string;
  name: string;
  filters: ListFilters;
}

export type WorkRequestsTab = 'list' | 'workflows' | 'inbox' | 'notifications' | 'queue';

/** Views every user starts with; they can be deleted like any other. */
const DEFAULT_VIEWS: SavedView[] = [
  {
    id: 'failed',
    name: 'Failed',
    filters: { ...NO_FILTERS, status: 'completed', result: 'failure' },
  },
  { id: 'running', name: 'Running', filters: { ...NO_FILTERS, status: 'running' } },
  { id: 'mine', name: 'Mine', filters: { ...NO_FILTERS, mine: true } },
  {
    id: 'workflows',
    name: 'Workflows',
    filters: { ...NO_FILTERS, rootOnly: true, taskType: 'Workflow' },
  },
];

interface ViewsState {
  tab: WorkRequestsTab;
  filters: ListFilters;
  views: SavedView[];
  activeViewId: string | null;
  /** The Workflows tab's facets (its own: that list is not the list of all work requests). */
  workflowFilters: WorkflowFilters;
  setTab: (tab: WorkRequestsTab) => void;
  setFilters: (patch: Partial<ListFilters>) => void;
  clearFilters: () => void;
  applyView: (id: string) => void;
  saveView: (name: string) => void;
  deleteView: (id: string) => void;
  setWorkflowFilters: (filters: WorkflowFilters) => void;
}

export function activeFilterCount(filters: ListFilters): number {
  return (Object.keys(NO_FILTERS) as (keyof ListFilters)[]).filter(
    (key) => filters[key] !== NO_FILTERS[key],
  ).length;
}

export const useViewsStore = create<ViewsState>()(
  persist(
    (set, get) => ({
      tab: 'list',
      filters: NO_FILTERS,
      views: DEFAULT_VIEWS,
      activeViewId: null,
      workflowFilters: NO_WORKFLOW_FILTERS,
      setTab: (tab) => {
        set({ tab });
      },
      setFilters: (patch) => {
        set((s) => ({ filters: { ...s.filters, ...patch }, activeViewId: null }));
      },
      clearFilters: () => {
        set({ filters: NO_FILTERS, activeViewId: null });
      },
      applyView: (id) => {
        const view = get().views.find((v) => v.id === id);
        if (view) set({ filters: { ...NO_FILTERS, ...view.filters }, activeViewId: id });
      },
      saveView: (name) => {
        const id = `view-${Date.now().toString(36)}`;
        set((s) => ({
          views: [...s.views, { id, name, filters: s.filters }],
          activeViewId: id,
        }));
      },
      deleteView: (id) => {
        set((s) => ({
          views: s.views.filter((v) => v.id !== id),
          activeViewId: s.activeViewId === id ? null : s.activeViewId,
        }));
      },
      setWorkflowFilters: (workflowFilters) => {
        set({ workflowFilters });
      },
    }),
    {
      name: 'debusine-desktop.work-request-views',
      version: 4,
      // Views saved before a filter existed get that filter's "off" value; so do the
      // Workflows tab's facets.
      migrate: (persisted, version) => {
        const state = persisted as Partial<ViewsState>;
        const views = (state.views ?? DEFAULT_VIEWS).map((v) => ({
          ...v,
          filters: { ...NO_FILTERS, ...v.filters },
        }));
        if (version < 3 && !views.some((v) => v.id === 'mine')) {
          const mine = DEFAULT_VIEWS.find((v) => v.id === 'mine');
          if (mine) views.splice(2, 0, mine);
        }
        return {
          tab: state.tab ?? 'list',
          filters: { ...NO_FILTERS, ...state.filters },
          views,
          activeViewId: state.activeViewId ?? null,
          workflowFilters: { ...NO_WORKFLOW_FILTERS, ...state.workflowFilters },
        };
      },
      partialize: (s) => ({
        tab: s.tab,
        filters: s.filters,
        views: s.views,
        activeViewId: s.activeViewId,
        workflowFilters: s.workflowFilters,
      }),
    },
  ),
);
