import { Library, Search, SlidersHorizontal } from 'lucide-react';
import { WorkspaceTabsArea } from '@renderer/kit/workspace-area';
import { CollectionsTabView } from './collections-tab';
import { LookupPlayground } from './lookups';
import { TaskConfigTab } from './task-config';
import { useCollectionsUi, type CollectionsTab } from './ui';
import '@renderer/kit/kit.css';
import './collections.css';

const TABS = [
  { id: 'collections', label: 'Collections', icon: <Library size={14} aria-hidden="true" /> },
  {
    id: 'task-config',
    label: 'Task configuration',
    icon: <SlidersHorizontal size={14} aria-hidden="true" />,
  },
  { id: 'lookups', label: 'Lookups', icon: <Search size={14} aria-hidden="true" /> },
] as const;

/** Collections, task configuration collections and the lookup playground of a workspace. */
export function CollectionsArea(): React.JSX.Element {
  const tab = useCollectionsUi((s) => s.tab);
  const setTab = useCollectionsUi((s) => s.setTab);
  return (
    <WorkspaceTabsArea<CollectionsTab>
      label="Collections views"
      idPrefix="collections"
      tabs={TABS}
      selected={tab}
      onSelect={setTab}
      emptyIcon={Library}
    >
      {(workspace) =>
        tab === 'collections' ? (
          <CollectionsTabView workspace={workspace} key={workspace} />
        ) : tab === 'task-config' ? (
          <TaskConfigTab workspace={workspace} key={workspace} />
        ) : (
          <LookupPlayground workspace={workspace} />
        )
      }
    </WorkspaceTabsArea>
  );
}
