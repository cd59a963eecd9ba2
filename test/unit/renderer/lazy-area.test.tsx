// @vitest-environment happy-dom
/**
 * An area loaded on first use shows its loading state, naming what is on its way, until its
 * code has arrived, then the area itself; its code is not asked for before it is shown.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyArea } from '@renderer/components/lazy-area';

afterEach(cleanup);

describe('lazyArea', () => {
  it('loads the area when shown, with its loading state meanwhile', async () => {
    let asked = 0;
    let arrive: (() => void) | undefined;
    const Area = lazyArea(() => {
      asked += 1;
      return new Promise((resolve) => {
        arrive = () => {
          resolve(() => <p>The area</p>);
        };
      });
    }, 'Loading the area…');
    expect(asked).toBe(0);
    render(<Area />);
    expect(screen.getByText('Loading the area…')).toBeTruthy();
    expect(asked).toBe(1);
    await act(async () => {
      arrive?.();
      await Promise.resolve();
    });
    expect(await screen.findByText('The area')).toBeTruthy();
    expect(screen.queryByText('Loading the area…')).toBeNull();
  });
});
