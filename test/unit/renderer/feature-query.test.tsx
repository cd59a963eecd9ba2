// @vitest-environment happy-dom
/**
 * A feature's screen waits and fails the same way everywhere: the loading state while its
 * query loads, "not offered by this server" (naming the release that brought the feature)
 * when the server lacks it, and its data once there.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { featureQuery } from '@renderer/kit/errors/feature-error';
import { DebusineError } from '@shared/errors';

const FEATURE = { loading: 'Loading things…', feature: 'Things', since: '0.13' };
const query = (state: object): UseQueryResult<number> =>
  ({ isPending: false, isError: false, ...state }) as unknown as UseQueryResult<number>;

afterEach(cleanup);

describe('featureQuery', () => {
  it('shows the loading state while the query loads', () => {
    const got = featureQuery(query({ isPending: true }), FEATURE);
    if (!('view' in got)) throw new Error('a pending query has no data');
    render(got.view);
    expect(screen.getByText('Loading things…')).toBeTruthy();
  });

  it('names the release that brought a feature the server lacks', () => {
    const error = new DebusineError('unsupported', 'Not offered (Debusine 0.11)');
    const got = featureQuery(query({ isError: true, error }), FEATURE);
    if (!('view' in got)) throw new Error('a failed query has no data');
    render(got.view);
    expect(screen.getByText('Things: not offered by this server')).toBeTruthy();
    expect(document.body.textContent).toContain('it came with Debusine 0.13');
  });

  it('offers a retry that fetches again on any other error', () => {
    let fetched = 0;
    const error = new DebusineError('network', 'The server did not answer');
    const got = featureQuery(
      query({ isError: true, error, refetch: () => (fetched += 1) }),
      FEATURE,
    );
    if (!('view' in got)) throw new Error('a failed query has no data');
    render(got.view);
    fireEvent.click(screen.getByRole('button', { name: /retry|try again/i }));
    expect(fetched).toBe(1);
  });

  it('hands over the data once it is there', () => {
    expect(featureQuery(query({ isSuccess: true, data: 42 }), FEATURE)).toEqual({ data: 42 });
  });
});
