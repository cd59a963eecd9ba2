import { lazyArea } from '@renderer/components/lazy-area';

export const WorkspacesScreen = lazyArea(
  () => import('./workspaces-screen').then((m) => m.WorkspacesArea),
  'Loading the workspace editor…',
);
