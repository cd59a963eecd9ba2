import { lazy, Suspense, type ComponentType } from 'react';
import { LoadingState } from './loading-state';

/**
 * An area of the app whose code is loaded the first time it is opened, not when the app
 * starts (the editors bring CodeMirror, YAML and diff), with a loading state naming what is on
 * its way.
 */
export function lazyArea(
  load: () => Promise<ComponentType>,
  loading: string,
): () => React.JSX.Element {
  const Area = lazy(() => load().then((component) => ({ default: component })));
  return function LazyArea(): React.JSX.Element {
    return (
      <Suspense fallback={<LoadingState label={loading} />}>
        <Area />
      </Suspense>
    );
  };
}
