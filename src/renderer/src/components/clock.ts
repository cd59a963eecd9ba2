/**
 * One clock for every relative time on screen ("3 seconds ago"): a single interval, running
 * only while something shows a relative time, instead of a timer per row. Each reader
 * subscribes with what it shows, so a tick re-renders only the times whose words changed.
 */

/** Often enough that a time in seconds counts up as the user watches it. */
export const TICK_MS = 1_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
/**
 * The time of the last tick: what every reader sees until the next one. Reading Date.now()
 * instead would let two renders in the same tick disagree (React reads a snapshot twice).
 */
let now = Date.now();

function tick(): void {
  now = Date.now();
  for (const listener of [...listeners]) listener();
}

/** Starts the interval with the first reader and stops it with the last. */
export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    // A reader that mounts after a long pause must not show the time of the last tick.
    now = Date.now();
    timer = setInterval(tick, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The clock's time: Date.now() as of its last tick, or as of when its first reader came
 * (a reader's first render may see an older time; its subscription then brings it up to
 * date).
 */
export function clockNow(): number {
  return now;
}
