import type { Area } from '@renderer/state/ui-store';
import { ArtifactsScreen } from '@renderer/screens/artifacts';
import { CollectionsScreen } from '@renderer/screens/collections';
import { RepositoriesScreen } from '@renderer/screens/repositories';
import { SettingsScreen } from '@renderer/screens/settings';
import { TemplatesScreen } from '@renderer/screens/templates';
import { UploadScreen } from '@renderer/screens/upload';
import { WorkRequestsScreen } from '@renderer/screens/work-requests';
import { WorkspacesScreen } from '@renderer/screens/workspaces';

/** One screen per area; each screen owns its folder (and its page views). */
export const SCREENS: Record<Area, () => React.JSX.Element> = {
  upload: UploadScreen,
  'work-requests': WorkRequestsScreen,
  artifacts: ArtifactsScreen,
  workspaces: WorkspacesScreen,
  collections: CollectionsScreen,
  templates: TemplatesScreen,
  repositories: RepositoriesScreen,
  settings: SettingsScreen,
};
