// @vitest-environment happy-dom
/**
 * Following a live log's tail: what turns it off is the user scrolling up (the top line
 * moving up with the last), not the view getting shorter from below while its top line
 * stays, as it does when a bar appears above the log (the build's summary, when sbuild's
 * last lines arrive), which had turned following off just before the step ended.
 */
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFollow } from '@renderer/screens/logs/live-follow';

afterEach(cleanup);

function following(total: number) {
  const scrollTo = vi.fn<(line: number) => void>();
  const hook = renderHook(() => useFollow(true, total, scrollTo));
  return {
    hook,
    scrollTo,
    report: (first: number, last: number) => {
      act(() => {
        hook.result.current.onVisible(first, last);
      });
    },
  };
}

describe('useFollow', () => {
  it('scrolls to the newest line while following', () => {
    const { hook, scrollTo } = following(100);
    expect(hook.result.current.follow).toBe(true);
    expect(scrollTo).toHaveBeenLastCalledWith(99);
  });

  it('keeps following when the view gets shorter with its top line where it was', () => {
    const { hook, report } = following(100);
    report(70, 99);
    report(70, 95);
    expect(hook.result.current.follow).toBe(true);
  });

  it('stops following when the user scrolls up, and follows again on Follow', () => {
    const { hook, report, scrollTo } = following(100);
    report(70, 99);
    report(60, 89);
    expect(hook.result.current.follow).toBe(false);
    act(() => {
      hook.result.current.setFollow(true);
    });
    expect(hook.result.current.follow).toBe(true);
    expect(scrollTo).toHaveBeenLastCalledWith(99);
  });

  it('does not count a scroll of a line or two, nor lines added below the screen', () => {
    const { hook, report } = following(100);
    report(70, 99);
    report(69, 98);
    report(69, 98);
    expect(hook.result.current.follow).toBe(true);
  });
});
