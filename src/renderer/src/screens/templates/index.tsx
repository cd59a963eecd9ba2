import { lazy, Suspense } from 'react';
import { LoadingState } from '@renderer/components/loading-state';

// Loaded when the area opens: the editor brings CodeMirror, YAML and diff.
const Screen = lazy(() => import('./templates-screen').then((m) => ({ default: m.TemplatesArea })));

export function TemplatesScreen(): React.JSX.Element {
  return (
    <Suspense fallback={<LoadingState label="Loading the template editor…" />}>
      <Screen />
    </Suspense>
  );
}
