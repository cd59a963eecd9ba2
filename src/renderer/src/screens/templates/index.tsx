import { lazyArea } from '@renderer/components/lazy-area';

export const TemplatesScreen = lazyArea(
  () => import('./templates-screen').then((m) => m.TemplatesArea),
  'Loading the template editor…',
);
