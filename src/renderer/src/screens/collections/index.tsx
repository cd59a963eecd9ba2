import { lazyArea } from '@renderer/components/lazy-area';

export const CollectionsScreen = lazyArea(
  () => import('./collections-screen').then((m) => m.CollectionsArea),
  'Loading the collection editor…',
);
