// @vitest-environment happy-dom
/**
 * Relative times follow one shared clock: "3 seconds ago" does not stay on screen, and a
 * page of rows runs one interval, not one per row, and none once no time is shown.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeAgo } from '@renderer/components/time-ago';

const START = new Date('2025-06-01T12:00:00Z').getTime();

describe('relative times', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('tick: "3 seconds ago" becomes minutes while it stays on screen', () => {
    render(<TimeAgo iso={new Date(START - 3_000).toISOString()} />);
    expect(screen.getByText('3 seconds ago')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByText('13 seconds ago')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(110_000);
    });
    expect(screen.queryByText(/seconds ago/)).toBeNull();
    expect(screen.getByText('2 minutes ago')).toBeTruthy();
  });

  it('share one interval however many rows show a time, and stop with the last', () => {
    const { unmount } = render(
      <ul>
        {Array.from({ length: 30 }, (_, i) => (
          <li key={i}>
            <TimeAgo iso={new Date(START - i * 1_000).toISOString()} />
          </li>
        ))}
      </ul>,
    );
    expect(vi.getTimerCount()).toBe(1);
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    expect(screen.getByText('5 seconds ago')).toBeTruthy();
    expect(screen.getByText('34 seconds ago')).toBeTruthy();
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a time shown after a long quiet spell starts from the present', () => {
    const first = render(<TimeAgo iso={new Date(START).toISOString()} />);
    first.unmount();
    // An hour with nothing on screen: no interval ran meanwhile.
    vi.setSystemTime(START + 3_600_000);
    render(<TimeAgo iso={new Date(START + 3_600_000 - 2_000).toISOString()} />);
    expect(screen.getByText('2 seconds ago')).toBeTruthy();
  });
});
