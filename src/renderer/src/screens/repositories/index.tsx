import { lazyArea } from '@renderer/components/lazy-area';

export const RepositoriesScreen = lazyArea(
  () => import('./repositories-screen').then((m) => m.RepositoriesArea),
  'Loading repositories…',
);
