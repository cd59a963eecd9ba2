import type { UseQueryResult } from '@tanstack/react-query';
import { ServerOff } from 'lucide-react';
import { EmptyState } from '@renderer/components/empty-state';
import { LoadingState } from '@renderer/components/loading-state';
import { ErrorState } from './error-state';
import { isUnsupported } from './problem';

/**
 * What a feature the server lacks shows ("not offered by this server"), and any other
 * error as the shared ErrorState.
 */
export function FeatureError(props: {
  error: unknown;
  feature: string;
  /** The Debusine release that brought the feature. */
  since?: string;
  onRetry?: () => void;
}): React.JSX.Element {
  if (isUnsupported(props.error)) {
    const message = props.error instanceof Error ? props.error.message : '';
    const release = /\(Debusine ([^)]+)\)/.exec(message)?.[1];
    return (
      <EmptyState icon={ServerOff} title={`${props.feature}: not offered by this server`}>
        <p>
          {release ? `This server runs Debusine ${release}, ` : 'This server release '}
          which does not have {props.feature.toLowerCase()}
          {props.since ? ` (it came with Debusine ${props.since})` : ''}. Use a newer server for it.
        </p>
      </EmptyState>
    );
  }
  return <ErrorState error={props.error} {...(props.onRetry ? { onRetry: props.onRetry } : {})} />;
}

/**
 * Where a view stands on the one query of a feature it is built on: still loading, failed
 * (shown as FeatureError, with a retry), or its data. A screen returns `view` while there is
 * one, so that each feature's screen waits and fails the same way.
 */
export function featureQuery<T>(
  query: UseQueryResult<T>,
  feature: { loading: string; feature: string; since: string },
): { view: React.JSX.Element } | { data: T } {
  if (query.isPending) return { view: <LoadingState label={feature.loading} /> };
  if (query.isError) {
    return {
      view: (
        <FeatureError
          error={query.error}
          feature={feature.feature}
          since={feature.since}
          onRetry={() => void query.refetch()}
        />
      ),
    };
  }
  return { data: query.data };
}
