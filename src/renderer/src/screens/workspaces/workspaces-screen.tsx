import { GitFork, KeyRound, FolderTree } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { LoadingState } from '../../components/loading-state';
import { canLeave } from '../../state/leave-guard';
import { TabPanel, Tabs } from '../collections/kit/tabs';
import { WorkspacePicker } from '../collections/kit/workspace-picker';
import { useCurrentWorkspace } from '../collections/kit/workspace';
import { AssetsTab } from './assets';
import { InheritanceEditor } from './inheritance';
import '../collections/kit/kit.css';
import './workspaces.css';

type WorkspacesTab = 'inheritance' | 'assets';

const TABS = [
  { id: 'inheritance', label: 'Inheritance', icon: <GitFork size={14} aria-hidden="true" /> },
  { id: 'assets', label: 'Assets', icon: <KeyRound size={14} aria-hidden="true" /> },
] as const;

export function WorkspacesArea(): React.JSX.Element {
  const [tab, setTab] = useState<WorkspacesTab>('inheritance');
  const { workspace, loading } = useCurrentWorkspace();
  return (
    <div className="editor-area">
      <div className="area-bar">
        <Tabs<WorkspacesTab>
          label="Workspace views"
          idPrefix="workspaces"
          tabs={TABS}
          selected={tab}
          onSelect={(next) => {
            if (next !== tab && canLeave()) setTab(next);
          }}
        />
        <WorkspacePicker />
      </div>
      <TabPanel idPrefix="workspaces" selected={tab}>
        {loading ? (
          <LoadingState />
        ) : workspace === null ? (
          <EmptyState icon={FolderTree} title="No workspace">
            Add a server in Settings, or type a workspace above.
          </EmptyState>
        ) : tab === 'inheritance' ? (
          <InheritanceEditor workspace={workspace} key={workspace} />
        ) : (
          <AssetsTab workspace={workspace} key={workspace} />
        )}
      </TabPanel>
    </div>
  );
}
