import { lazy, Suspense } from 'react';
import { LoadingState } from '@renderer/components/loading-state';

// The editors bring CodeMirror, YAML and diff: loaded when the area opens, not at start.
const Screen = lazy(() =>
  import('./collections-screen').then((m) => ({ default: m.CollectionsArea })),
);

export function CollectionsScreen(): React.JSX.Element {
  return (
    <Suspense fallback={<LoadingState label="Loading the collection editor…" />}>
      <Screen />
    </Suspense>
  );
}
