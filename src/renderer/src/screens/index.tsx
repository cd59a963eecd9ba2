import type { Area } from '../state/ui-store';
import { ArtifactsScreen } from './artifacts';
import { CollectionsScreen } from './collections';
import { SettingsScreen } from './settings';
import { TemplatesScreen } from './templates';
import { UploadScreen } from './upload';
import { WorkRequestsScreen } from './work-requests';
import { WorkspacesScreen } from './workspaces';

/** One screen per area; each screen owns its folder (and its page views). */
export const SCREENS: Record<Area, () => React.JSX.Element> = {
  upload: UploadScreen,
  'work-requests': WorkRequestsScreen,
  artifacts: ArtifactsScreen,
  workspaces: WorkspacesScreen,
  collections: CollectionsScreen,
  templates: TemplatesScreen,
  settings: SettingsScreen,
};
