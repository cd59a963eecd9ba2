/**
 * The log viewer's scroll model: a position in lines of content, and the bounded sizer's
 * scrollTop mapped onto it. At ten million lines both ends are exact both ways, every line
 * can be shown, and below the bound the mapping is the browser's own (the identity).
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_SIZER,
  advance,
  anchorAt,
  placeRows,
  clampTop,
  maxScrollTop,
  maxTop,
  rowsPerView,
  scrollTopFor,
  sizerHeight,
  topForLine,
  topForScroll,
  visibleLines,
  type Geometry,
} from '@renderer/screens/logs/scroll-model';

const ROW = 18;
const VIEW = 540;
const TEN_MILLION: Geometry = { count: 10_000_000, rowHeight: ROW, viewport: VIEW };

describe('the scroll model at ten million lines', () => {
  const g = TEN_MILLION;

  it('keeps the sizer bounded, far below what Chromium can lay out', () => {
    expect(sizerHeight(g)).toBe(MAX_SIZER);
    expect(MAX_SIZER).toBeLessThan(2 ** 25);
    // One tall sizer would have needed 180 million pixels.
    expect(g.count * ROW).toBe(180_000_000);
  });

  it('maps both ends exactly, both ways', () => {
    expect(topForScroll(0, g)).toBe(0);
    expect(scrollTopFor(0, g)).toBe(0);
    expect(topForScroll(maxScrollTop(g), g)).toBe(maxTop(g));
    expect(scrollTopFor(maxTop(g), g)).toBe(maxScrollTop(g));
    // The browser rounds scrollTop: within half a pixel of an end is that end.
    expect(topForScroll(maxScrollTop(g) - 0.4, g)).toBe(maxTop(g));
    expect(topForScroll(0.4, g)).toBe(0);
  });

  it('shows the first line at the top and the last line at the bottom', () => {
    expect(visibleLines(0, g)).toEqual({ first: 0, last: VIEW / ROW - 1 });
    const end = visibleLines(maxTop(g), g);
    expect(end.last).toBe(g.count - 1);
    expect(end.first).toBe(g.count - VIEW / ROW);
    // The last line's bottom is the view's bottom, to the pixel.
    expect(maxTop(g) + VIEW).toBe(g.count * ROW);
  });

  it('centres any line asked for, as far as the ends allow', () => {
    expect(topForLine(0, g)).toBe(0);
    expect(topForLine(g.count - 1, g)).toBe(maxTop(g));
    for (const line of [1_864_155, 5_000_000, 9_999_000]) {
      const { first, last } = visibleLines(topForLine(line, g), g);
      expect(line).toBeGreaterThanOrEqual(first);
      expect(line).toBeLessThanOrEqual(last);
      expect(Math.abs(line - first - (last - line))).toBeLessThanOrEqual(1);
    }
  });

  it('maps the scroll range proportionally and in order, with no line out of reach', () => {
    let before = -1;
    for (let s = 0; s <= maxScrollTop(g); s += maxScrollTop(g) / 1000) {
      const top = topForScroll(s, g);
      expect(top).toBeGreaterThanOrEqual(before);
      before = top;
      // Back to the scroll bar: where it was (the position is never rounded).
      expect(scrollTopFor(top, g)).toBeCloseTo(s, 6);
    }
    expect(before).toBe(maxTop(g));
  });

  it('moves by pixels of content, not of scroll bar: a wheel step is the same everywhere', () => {
    const deep = topForLine(9_000_000, g);
    const moved = clampTop(deep + 3 * ROW, g);
    expect(visibleLines(moved, g).first - visibleLines(deep, g).first).toBe(3);
    expect(clampTop(maxTop(g) + 100, g)).toBe(maxTop(g));
    expect(clampTop(Infinity, g)).toBe(maxTop(g));
    expect(clampTop(-Infinity, g)).toBe(0);
  });

  it('keeps a position on its lines when the log grows, the scroll bar moving up', () => {
    const top = topForLine(5_000_000, g);
    const grown = { ...g, count: 12_000_000 };
    expect(clampTop(top, grown)).toBe(top);
    expect(scrollTopFor(top, grown)).toBeLessThan(scrollTopFor(top, g));
    expect(visibleLines(maxTop(grown), grown).last).toBe(11_999_999);
  });
});

describe('the scroll model below the bound', () => {
  it('is the identity: a pixel of scroll bar is a pixel of content', () => {
    const g: Geometry = { count: 50_000, rowHeight: ROW, viewport: VIEW };
    expect(sizerHeight(g)).toBe(50_000 * ROW);
    for (const s of [0, 1, 17, 18, 12_345, maxScrollTop(g)]) {
      expect(topForScroll(s, g)).toBe(s);
      expect(scrollTopFor(s, g)).toBe(s);
    }
  });

  it('has nowhere to go when the log fits, and no rows when it is empty', () => {
    const short: Geometry = { count: 10, rowHeight: ROW, viewport: VIEW };
    expect(maxTop(short)).toBe(0);
    expect(scrollTopFor(100, short)).toBe(0);
    expect(topForScroll(100, short)).toBe(0);
    expect(visibleLines(0, short)).toEqual({ first: 0, last: 9 });
    const empty: Geometry = { count: 0, rowHeight: ROW, viewport: VIEW };
    expect(visibleLines(0, empty)).toEqual({ first: 0, last: 0 });
    expect(sizerHeight(empty)).toBe(0);
  });

  it('gives a short log whose lines wrap a scroll bar, as tall as its measured rows', () => {
    // Ten lines of five rows each: 900 px of content in a 540 px view, where ten rows alone
    // (180 px) would fit and show no scroll bar.
    const heights = new Map(Array.from({ length: 10 }, (_, line) => [line, 5 * ROW] as const));
    const wrapped: Geometry = { count: 10, rowHeight: ROW, viewport: VIEW, heights };
    expect(sizerHeight(wrapped)).toBe(10 * 5 * ROW);
    expect(maxScrollTop(wrapped)).toBe(10 * 5 * ROW - VIEW);
    expect(maxTop(wrapped)).toBeGreaterThan(0);
    // The scroll bar's end is the last line's bottom, and its start the first line.
    expect(topForScroll(maxScrollTop(wrapped), wrapped)).toBe(maxTop(wrapped));
    expect(visibleLines(maxTop(wrapped), wrapped).last).toBe(9);
    expect(scrollTopFor(0, wrapped)).toBe(0);
  });

  it('draws a screen of rows and one more, for a row partly out at each end', () => {
    expect(rowsPerView({ count: 1, rowHeight: ROW, viewport: VIEW })).toBe(31);
    const partly = visibleLines(9, { count: 1000, rowHeight: ROW, viewport: VIEW });
    expect(partly.last - partly.first + 1).toBe(31);
  });
});

describe('wrapped lines, of measured heights, at ten million lines', () => {
  /** The last 100 lines and those around the middle take three rows each. */
  const heights = new Map<number, number>();
  for (let i = 0; i < 100; i++) heights.set(10_000_000 - 1 - i, 3 * ROW);
  for (let i = 4_999_950; i < 5_000_050; i++) heights.set(i, 3 * ROW);
  const g: Geometry = { ...TEN_MILLION, heights };
  const height = (line: number): number => heights.get(line) ?? ROW;

  it('places each row just below the one before, none over another', () => {
    for (const top of [0, 5_000_000 * ROW - 7, maxTop(g)]) {
      const { rows } = placeRows(top, g, 4);
      rows.forEach((row, i) => {
        const before = rows[i - 1];
        if (before) expect(row.y).toBe(before.y + height(before.index));
      });
    }
  });

  it('ends with the last line whole at the bottom of the view, mapped from the bar end', () => {
    const { rows, last } = placeRows(maxTop(g), g, 0);
    expect(last).toBe(g.count - 1);
    const row = rows.find((r) => r.index === last);
    expect((row?.y ?? 0) + 3 * ROW).toBe(VIEW);
    expect(topForScroll(maxScrollTop(g), g)).toBe(maxTop(g));
    expect(scrollTopFor(maxTop(g), g)).toBe(maxScrollTop(g));
  });

  it('keeps the same top line whatever the heights: a position is a line and a fraction', () => {
    for (const top of [0, 5_000_000 * ROW + 9, 7_777_777 * ROW]) {
      expect(anchorAt(top, g).line).toBe(anchorAt(top, TEN_MILLION).line);
    }
  });

  it('moves by pixels over the measured heights', () => {
    const top = 5_000_000 * ROW;
    expect(anchorAt(advance(top, 27, g), g)).toEqual({ line: 5_000_000, offset: 27 });
    expect(anchorAt(advance(top, 3 * ROW, g), g)).toEqual({ line: 5_000_001, offset: 0 });
    // Up over line 4 999 999 (three rows), and 18 px up into 4 999 998 (three rows too):
    // 36 px of it are above the view.
    const up = anchorAt(advance(top, -3 * ROW - ROW, g), g);
    expect(up.line).toBe(4_999_998);
    expect(up.offset).toBeCloseTo(2 * ROW, 6);
    // Unmeasured lines are one row each, as unwrapped.
    expect(advance(ROW * 10, 5 * ROW, g)).toBe(ROW * 15);
  });

  it('centres a tall line asked for', () => {
    const { rows } = placeRows(topForLine(5_000_000, g), g, 0);
    expect(rows.find((r) => r.index === 5_000_000)?.y).toBe((VIEW - 3 * ROW) / 2);
  });
});
