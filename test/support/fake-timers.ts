import { afterEach, beforeEach, vi } from 'vitest';

/** Each test of the file (or suite) that calls this runs on fake timers, real ones after. */
export function fakeTimersInEachTest(): void {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
