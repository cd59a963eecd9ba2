import { GitFork, KeyRound, FolderTree } from 'lucide-react';
import { useState } from 'react';
import { WorkspaceTabsArea } from '@renderer/kit/workspace-area';
import { AssetsTab } from './assets';
import { InheritanceEditor } from './inheritance';
import '@renderer/kit/kit.css';
import './workspaces.css';

type WorkspacesTab = 'inheritance' | 'assets';

const TABS = [
  { id: 'inheritance', label: 'Inheritance', icon: <GitFork size={14} aria-hidden="true" /> },
  { id: 'assets', label: 'Assets', icon: <KeyRound size={14} aria-hidden="true" /> },
] as const;

export function WorkspacesArea(): React.JSX.Element {
  const [tab, setTab] = useState<WorkspacesTab>('inheritance');
  return (
    <WorkspaceTabsArea<WorkspacesTab>
      label="Workspace views"
      idPrefix="workspaces"
      tabs={TABS}
      selected={tab}
      onSelect={setTab}
      emptyIcon={FolderTree}
    >
      {(workspace) =>
        tab === 'inheritance' ? (
          <InheritanceEditor workspace={workspace} key={workspace} />
        ) : (
          <AssetsTab workspace={workspace} key={workspace} />
        )
      }
    </WorkspaceTabsArea>
  );
}
