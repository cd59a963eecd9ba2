/** UI state of the Collections area: the open tab and the selected collection. */
import { create } from 'zustand';

export type CollectionsTab = 'collections' | 'task-config' | 'lookups';

export type CollectionSelection = { kind: 'collection'; id: number } | { kind: 'new' } | null;

interface CollectionsUi {
  tab: CollectionsTab;
  selected: CollectionSelection;
  /** Editing the selected collection (rather than viewing it). */
  editing: boolean;
  setTab: (tab: CollectionsTab) => void;
  select: (selected: CollectionSelection, editing?: boolean) => void;
  setEditing: (editing: boolean) => void;
}

export const useCollectionsUi = create<CollectionsUi>()((set) => ({
  tab: 'collections',
  selected: null,
  editing: false,
  setTab: (tab) => {
    set({ tab });
  },
  select: (selected, editing = false) => {
    set({ selected, editing });
  },
  setEditing: (editing) => {
    set({ editing });
  },
}));
