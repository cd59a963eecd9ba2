import { Library, Search, SlidersHorizontal } from 'lucide-react';
import { canLeave } from '../../state/leave-guard';
import { TabPanel, Tabs } from './kit/tabs';
import { WorkspacePicker } from './kit/workspace-picker';
import { useCurrentWorkspace } from './kit/workspace';
import { CollectionsTabView } from './collections-tab';
import { LookupPlayground } from './lookups';
import { TaskConfigTab } from './task-config';
import { useCollectionsUi, type CollectionsTab } from './ui';
import { LoadingState } from '../../components/loading-state';
import { EmptyState } from '../../components/empty-state';
import './kit/kit.css';
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
  const { workspace, loading } = useCurrentWorkspace();
  return (
    <div className="editor-area">
      <div className="area-bar">
        <Tabs<CollectionsTab>
          label="Collections views"
          idPrefix="collections"
          tabs={TABS}
          selected={tab}
          onSelect={(next) => {
            if (next !== tab && canLeave()) setTab(next);
          }}
        />
        <WorkspacePicker />
      </div>
      <TabPanel idPrefix="collections" selected={tab}>
        {loading ? (
          <LoadingState />
        ) : workspace === null ? (
          <EmptyState icon={Library} title="No workspace">
            Add a server in Settings, or type a workspace above.
          </EmptyState>
        ) : tab === 'collections' ? (
          <CollectionsTabView workspace={workspace} key={workspace} />
        ) : tab === 'task-config' ? (
          <TaskConfigTab workspace={workspace} key={workspace} />
        ) : (
          <LookupPlayground workspace={workspace} />
        )}
      </TabPanel>
    </div>
  );
}
