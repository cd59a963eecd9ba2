/**
 * Following a live log's tail: while `follow` is on, each growth scrolls to the last line;
 * scrolling up (the last visible line moving up, away from the end the viewer last went
 * to) turns it off, and the Follow button turns it on again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Follow {
  follow: boolean;
  setFollow: (on: boolean) => void;
  /** Give it the lines on screen, as the log body reports them. */
  onVisible: (first: number, last: number) => void;
}

/** Lines the view may lag behind the end before it counts as the user scrolling up. */
const SLACK = 2;

export function useFollow(
  active: boolean,
  totalLines: number,
  scrollTo: (line: number) => void,
): Follow {
  // On from the start: `active` is false until the log's first state says it is live.
  const [follow, setFollowState] = useState(true);
  /** The last line the viewer was asked to show by following; -1 before the first. */
  const target = useRef(-1);

  useEffect(() => {
    if (!active || !follow || totalLines === 0) return;
    target.current = totalLines - 1;
    scrollTo(totalLines - 1);
  }, [active, follow, totalLines, scrollTo]);

  const setFollow = useCallback(
    (on: boolean) => {
      setFollowState(on);
      if (on && totalLines > 0) {
        target.current = totalLines - 1;
        scrollTo(totalLines - 1);
      }
    },
    [totalLines, scrollTo],
  );

  /** The lines on screen at the previous report; null before the first. */
  const seen = useRef<{ first: number; last: number } | null>(null);
  const onVisible = useCallback(
    (first: number, last: number) => {
      const before = seen.current;
      seen.current = { first, last };
      // Only a move up counts: a report from before the scroll to the end has landed (the
      // body's first, at the top) or of lines added below the screen is not the user's. Nor
      // is a view made shorter from below (a bar appearing above it, such as the build's
      // summary when its last lines arrive): its top line stays where it was, where a
      // scroll up moves it up too.
      if (!follow || target.current < 0 || before === null) return;
      if (last >= before.last || first >= before.first) return;
      if (last < target.current - SLACK) setFollowState(false);
    },
    [follow],
  );

  return { follow: active && follow, setFollow, onVisible };
}
