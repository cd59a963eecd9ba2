/**
 * Text from a server made visible character by character, for log lines (main, through
 * logs/line-text.ts) and file names (the renderer). Neither is trusted, and some characters
 * show nothing or act on the text around them:
 *
 * - control characters (C0, DEL, C1): a viewer would draw nothing, or break the line;
 * - format characters (Unicode category Cf), above all the bidirectional controls
 *   (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): RIGHT-TO-LEFT OVERRIDE makes
 *   `evil\u202Etxt.exe` read "evilexe.txt"; the zero-width spaces and joiners, the word
 *   joiner, the byte order mark and the soft hyphen hide text, or make two different names
 *   look the same;
 * - the line and paragraph separators (U+2028, U+2029), which a browser may break a line at.
 *
 * Each becomes a mark that shows which character it was: C0 its Control Pictures symbol
 * (NUL as ␀, ESC as ␛, tab as ␉), DEL ␡, C1 U+FFFD (one of them is an 8-bit CSI), every
 * other one `<U+XXXX>`, its code point, as Unicode writes it. Emoji that are sequences
 * joined by U+200D fall apart into their parts: a name or a log line that shows each of
 * its characters is worth that.
 */
/* eslint-disable no-control-regex -- finding control characters is what this module is for */

/** Everything described above. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/** The same but tab and LF: a log line's tabs are its spacing, and LF joins its lines. */
const INVISIBLE_BUT_TAB_AND_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Where those may be, for finding them in much text (a run of log lines): matching by
 * Unicode property reads code points, ten times slower than this, which reads code units.
 * So this is a superset, by hand: the format characters' ranges in the BMP (a few
 * unassigned ones among them), U+2028–U+202E, and every code point of the planes' blocks
 * that hold the others (U+110xx, U+134xx, U+1BCxx, U+1D1xx, U+E00xx–U+E03xx) by their
 * high surrogate. A test checks that it still covers every one Node knows.
 */
const MAYBE_FORMAT = String.raw`\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb`;
const MAYBE_ASTRAL = String.raw`[\ud804\ud80d\ud82f\ud834\udb40][\udc00-\udfff]`;
const MAYBE_INVISIBLE = new RegExp(
  String.raw`[\u0000-\u001f\u007f-\u009f${MAYBE_FORMAT}]|${MAYBE_ASTRAL}`,
  'g',
);
const MAYBE_INVISIBLE_BUT_TAB_AND_LF = new RegExp(
  String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f${MAYBE_FORMAT}]|${MAYBE_ASTRAL}`,
  'g',
);

/** What may be left as it is: nothing (a name), or tabs and newlines (lines of a log). */
export type Keep = 'nothing' | 'tabs and newlines';

function mark(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if (code <= 0x9f) return '\ufffd';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with each invisible character replaced by its mark (see above). */
export function visibleText(text: string, keep: Keep = 'nothing'): string {
  return text.replace(keep === 'nothing' ? INVISIBLE : INVISIBLE_BUT_TAB_AND_LF, mark);
}

/**
 * From `from` on, where `visibleText(text, keep)` may have something to replace, or -1 where
 * it has nothing: so that a caller with much text (a run of log lines) rewrites only the
 * parts that need it. It may answer for a character that stays as it is (see MAYBE_FORMAT),
 * never -1 for text that has one to replace.
 */
export function nextInvisible(text: string, from: number, keep: Keep): number {
  const pattern = keep === 'nothing' ? MAYBE_INVISIBLE : MAYBE_INVISIBLE_BUT_TAB_AND_LF;
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}
