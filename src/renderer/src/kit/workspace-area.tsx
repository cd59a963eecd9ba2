import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@renderer/components/empty-state';
import { LoadingState } from '@renderer/components/loading-state';
import { canLeave } from '@renderer/state/leave-guard';
import { TabPanel, Tabs, type TabInfo } from '@renderer/components/tabs';
import { WorkspacePicker } from './workspace-picker';
import { useCurrentWorkspace } from './current-workspace';

/**
 * The shell of a tabbed area about one workspace: the tabs and the workspace picker above,
 * then the selected tab's view of the current workspace (once it is known). Switching tabs
 * asks first when an edit is unsaved.
 */
export function WorkspaceTabsArea<T extends string>(props: {
  label: string;
  idPrefix: string;
  tabs: readonly TabInfo<T>[];
  selected: T;
  onSelect: (tab: T) => void;
  /** Shown when there is no workspace to show. */
  emptyIcon: LucideIcon;
  children: (workspace: string) => ReactNode;
}): React.JSX.Element {
  const { selected } = props;
  const { workspace, loading } = useCurrentWorkspace();
  return (
    <div className="editor-area">
      <div className="area-bar">
        <Tabs<T>
          label={props.label}
          idPrefix={props.idPrefix}
          tabs={props.tabs}
          selected={selected}
          onSelect={(next) => {
            if (next !== selected && canLeave()) props.onSelect(next);
          }}
        />
        <WorkspacePicker />
      </div>
      <TabPanel idPrefix={props.idPrefix} selected={selected}>
        {loading ? (
          <LoadingState />
        ) : workspace === null ? (
          <EmptyState icon={props.emptyIcon} title="No workspace">
            Add a server in Settings, or type a workspace above.
          </EmptyState>
        ) : (
          props.children(workspace)
        )}
      </TabPanel>
    </div>
  );
}
