/**
 * Text from a server where the desktop shows it outside the window: a notification's title
 * and body, a tray menu's labels. A server may send any string (a 60 KiB result, a task name
 * with a right-to-left override), and the desktop shows what it is given, whole: a
 * notification daemon does not cut a title, nor undo an override. So every such string is
 * made visible (shared/visible-text.ts) and bounded here, in one place.
 */
import { visibleText, type Keep } from './visible-text';

/** Longest title (a notification's, a tray menu's line): more than a desktop shows. */
export const TITLE_MAX = 200;
/** Longest notification body: a reason, a few names and where, with room to spare. */
export const BODY_MAX = 1000;

const ELLIPSIS = '…';

/**
 * `text` made visible, at most `max` UTF-16 units long: past that, cut between two
 * graphemes (no letter or emoji in half) and ended with an ellipsis.
 */
export function boundedText(text: string, max: number, keep: Keep = 'nothing'): string {
  // Every character shows as one unit at least, so one past `max` is all that needs reading,
  // however long the text.
  const cut = text.length > max;
  const visible = visibleText(cut ? text.slice(0, max + 1) : text, keep);
  if (!cut && visible.length <= max) return visible;
  const graphemes = [
    ...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(visible),
  ].map((s) => s.segment);
  // The last grapheme read may be one the slice cut in half: it never shows.
  if (cut) graphemes.pop();
  let shown = '';
  for (const grapheme of graphemes) {
    if (shown.length + grapheme.length > max - ELLIPSIS.length) break;
    shown += grapheme;
  }
  return shown + ELLIPSIS;
}

/** A title: one line, control characters (line breaks too) shown as their marks. */
export function titleText(text: string): string {
  return boundedText(text, TITLE_MAX, 'nothing');
}

/** A body: its line breaks and tabs are its layout and stay. */
export function bodyText(text: string): string {
  return boundedText(text, BODY_MAX, 'tabs and newlines');
}
