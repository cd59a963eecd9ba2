import { lazy, Suspense } from 'react';
import { LoadingState } from '@renderer/components/loading-state';

// Loaded when the area opens: the editors bring CodeMirror, YAML and diff.
const Screen = lazy(() =>
  import('./workspaces-screen').then((m) => ({ default: m.WorkspacesArea })),
);

export function WorkspacesScreen(): React.JSX.Element {
  return (
    <Suspense fallback={<LoadingState label="Loading the workspace editor…" />}>
      <Screen />
    </Suspense>
  );
}
