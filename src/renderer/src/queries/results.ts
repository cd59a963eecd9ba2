/**
 * What a work request produced, for its results view: its artifacts (read one by one, in
 * one entry per work request), a lintian artifact's tags (read by main from its
 * analysis.json), and why a failed step failed. Kept under the active server's scope.
 */
import type { QueryKey } from '@tanstack/react-query';
import type { ArtifactResponse } from '@shared/contract';
import { defineQuery, type Scope } from './define';
import { useServerQuery } from './hooks';

export const resultKeys = {
  artifacts: (scope: Scope, workRequestId: number): QueryKey => [
    scope,
    'results',
    'artifacts',
    workRequestId,
  ],
  lintianTags: (scope: Scope, artifactId: number): QueryKey => [
    scope,
    'results',
    'lintian-tags',
    artifactId,
  ],
  failure: (scope: Scope, workRequestId: number): QueryKey => [
    scope,
    'results',
    'failure',
    workRequestId,
  ],
};

export const resultQueries = {
  /** The artifacts of a work request (its `artifacts` ids), each as the server describes it. */
  artifacts: (scope: Scope, workRequestId: number, ids: readonly number[]) =>
    defineQuery(
      [...resultKeys.artifacts(scope, workRequestId), ...ids],
      (bridge): Promise<ArtifactResponse[]> =>
        Promise.all(ids.map((id) => bridge.artifacts.get({ id }))),
      // An artifact does not change once its work request is over.
      { staleTime: 5 * 60_000 },
    ),
  lintianTags: (scope: Scope, artifactId: number) =>
    defineQuery(
      resultKeys.lintianTags(scope, artifactId),
      (bridge) => bridge.results.lintianTags({ artifactId }),
      { staleTime: Infinity, retry: false },
    ),
  /** Why a failed work request failed: a completed failure does not change. */
  failure: (scope: Scope, workRequestId: number) =>
    defineQuery(
      resultKeys.failure(scope, workRequestId),
      (bridge) => bridge.workRequests.explainFailure({ id: workRequestId }),
      { staleTime: Infinity, retry: false },
    ),
};

export function useResultArtifacts(workRequestId: number, ids: readonly number[]) {
  return useServerQuery((scope) => resultQueries.artifacts(scope, workRequestId, ids));
}

export function useLintianTags(artifactId: number) {
  return useServerQuery((scope) => resultQueries.lintianTags(scope, artifactId));
}

/** Fetched only when `failed`: a step that did not fail has no reason to ask for. */
export function useFailureReason(workRequestId: number, failed: boolean) {
  return useServerQuery((scope) => resultQueries.failure(scope, workRequestId), {
    enabled: failed,
  });
}
