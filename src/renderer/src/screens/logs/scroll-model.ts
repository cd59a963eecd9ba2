/**
 * Where an unwrapped log is scrolled to, kept as a position in the content (the lines, one
 * height each), not as the scroll container's scrollTop. An element cannot be as tall as
 * ten million lines of 18 px: Chromium stops laying out at about 33.5 million pixels (2^25
 * less a little), about 1.86 million such lines, and a sizer that tall would leave the rest
 * of the file out of reach. So the sizer is at most MAX_SIZER pixels tall, and its scroll
 * range is mapped proportionally onto the content's: the scroll bar shows where the view
 * is and can be dragged, while wheel, keys and "go to line" move the position itself, by
 * lines and pixels of content, and set the scroll bar from it. Below MAX_SIZER the mapping
 * is the identity, and scrolling is the browser's own, pixel for pixel.
 *
 * Pure arithmetic, so that both ends can be checked exactly at any number of lines.
 */

/** Far below Chromium's limit, so that zoom and rounding never reach it. */
export const MAX_SIZER = 8_000_000;

export interface Geometry {
  /** Lines in the log (it may grow while open). */
  count: number;
  /** Pixels per line. */
  rowHeight: number;
  /** Height of the view, in pixels. */
  viewport: number;
  /** The tallest sizer allowed (MAX_SIZER but in tests). */
  maxSizer?: number;
}

/** The content's height: every line, one row each. */
export function contentHeight(g: Geometry): number {
  return g.count * g.rowHeight;
}

/** The highest position: the last line's bottom at the view's bottom. */
export function maxTop(g: Geometry): number {
  return Math.max(0, contentHeight(g) - g.viewport);
}

/** The sizer's height: the content's, up to the bound. */
export function sizerHeight(g: Geometry): number {
  return Math.min(contentHeight(g), g.maxSizer ?? MAX_SIZER);
}

/** The scroll container's scroll range over the sizer. */
export function maxScrollTop(g: Geometry): number {
  return Math.max(0, sizerHeight(g) - g.viewport);
}

/** A position kept within the content. */
export function clampTop(top: number, g: Geometry): number {
  if (!Number.isFinite(top)) return top > 0 ? maxTop(g) : 0;
  return Math.min(maxTop(g), Math.max(0, top));
}

/** The scrollTop that shows `top`: proportional, both ends exact. */
export function scrollTopFor(top: number, g: Geometry): number {
  const range = maxTop(g);
  if (range === 0) return 0;
  const t = clampTop(top, g);
  if (t === range) return maxScrollTop(g);
  return (t / range) * maxScrollTop(g);
}

/**
 * The position a scrollTop (read from the scroll container, the user having dragged the
 * scroll bar) stands for. Within half a pixel of either end it is that end: the browser
 * rounds scrollTop, and the ends must be reachable exactly.
 */
export function topForScroll(scrollTop: number, g: Geometry): number {
  const range = maxScrollTop(g);
  if (range === 0 || scrollTop <= 0.5) return 0;
  if (scrollTop >= range - 0.5) return maxTop(g);
  return clampTop((scrollTop / range) * maxTop(g), g);
}

/** The position that shows `line`: in the middle of the view, as far as the ends allow. */
export function topForLine(line: number, g: Geometry): number {
  return clampTop(line * g.rowHeight - (g.viewport - g.rowHeight) / 2, g);
}

/** The first and the last line on screen (partly or wholly) at `top`. */
export function visibleLines(top: number, g: Geometry): { first: number; last: number } {
  if (g.count === 0) return { first: 0, last: 0 };
  const last = g.count - 1;
  const first = Math.min(last, Math.max(0, Math.floor(top / g.rowHeight)));
  const bottom = Math.ceil((top + g.viewport) / g.rowHeight) - 1;
  return { first, last: Math.min(last, Math.max(first, bottom)) };
}

/** Rows on screen at most, whatever the position: the size of the pool of rows. */
export function rowsPerView(g: Geometry): number {
  return Math.ceil(g.viewport / g.rowHeight) + 1;
}
