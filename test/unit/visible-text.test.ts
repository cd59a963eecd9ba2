/**
 * Text from a server shows every character that would otherwise show nothing or act on the
 * text around it. The attack: `evil\u202Etxt.exe`, where RIGHT-TO-LEFT OVERRIDE makes the
 * name read "evilexe.txt"; zero-width characters make two different names look the same.
 * One function (src/shared/visible-text.ts) does it for file names and, through
 * line-text.ts, for log lines.
 */
import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/main/logs/line-text';
import { nextInvisible, visibleText, type Keep } from '../../src/shared/visible-text';

/** Characters by their code points. */
const chars = (...codes: number[]): string[] => codes.map((c) => String.fromCodePoint(c));

/** Bidirectional controls: embeddings, overrides, isolates and the implicit marks. */
const BIDI = chars(0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069).concat(
  chars(0x200e, 0x200f, 0x061c),
);
/**
 * Other format characters: zero-width space and joiners, word joiner and invisible
 * operators, the byte order mark, the soft hyphen, the Mongolian vowel separator, a tag.
 */
const FORMAT = chars(0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064).concat(
  chars(0xfeff, 0x00ad, 0x180e, 0xe0041),
);
/** Line and paragraph separators start a new line in a browser's text. */
const SEPARATORS = chars(0x2028, 0x2029);

/** Anything that shows nothing or acts on the text around it; none may be left. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('visibleText', () => {
  it('shows each bidirectional control, format character and separator as its code point', () => {
    for (const char of [...BIDI, ...FORMAT, ...SEPARATORS]) {
      const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      expect(visibleText(`a${char}b`), code).toBe(`a<U+${code}>b`);
    }
    expect(visibleText('evil\u202etxt.exe')).toBe('evil<U+202E>txt.exe');
  });

  it('shows control characters as before: C0 as Control Pictures, DEL as ␡, C1 as U+FFFD', () => {
    expect(visibleText('a\u0000b\tc\nd\u001be\u007ff\u009bg')).toBe('a␀b␉c␊d␛e␡f\ufffdg');
  });

  it('keeps tab and LF when asked (log lines), and shows the rest', () => {
    expect(visibleText('a\tb\nc\u202ed\u0007', 'tabs and newlines')).toBe('a\tb\nc<U+202E>d␇');
  });

  it('leaves ordinary text alone, other scripts and emoji without joiners included', () => {
    for (const text of ['hello_2.10-5_amd64.deb', 'שלום.txt', 'عربي', 'naïve — ok 🎉', '']) {
      expect(visibleText(text)).toBe(text);
    }
  });

  it('leaves nothing invisible, whatever the text', () => {
    let text = '';
    for (let code = 0; code < 0x30000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      text += String.fromCodePoint(code);
    }
    text += String.fromCodePoint(0xe0001, 0xe007f);
    expect(INVISIBLE.test(visibleText(text))).toBe(false);
    expect(INVISIBLE.test(visibleText(text, 'tabs and newlines').replace(/[\t\n]/g, ''))).toBe(
      false,
    );
  });
});

describe('nextInvisible', () => {
  it('finds every character visibleText replaces, as Node’s Unicode tables have them', () => {
    // Its ranges are written by hand (for speed); a newer Unicode could add to the category.
    for (const keep of ['nothing', 'tabs and newlines'] as Keep[]) {
      const missed: string[] = [];
      for (let code = 0; code <= 0x10ffff; code++) {
        if (code >= 0xd800 && code <= 0xdfff) continue;
        const char = String.fromCodePoint(code);
        if (visibleText(char, keep) !== char && nextInvisible(`ab${char}`, 0, keep) !== 2) {
          missed.push(code.toString(16));
        }
      }
      expect(missed, keep).toEqual([]);
    }
  });

  it('starts where it is told, and answers -1 when nothing is left', () => {
    const text = 'a\u202eb\tc\u200bd';
    expect(nextInvisible(text, 0, 'nothing')).toBe(1);
    expect(nextInvisible(text, 2, 'nothing')).toBe(3);
    expect(nextInvisible(text, 2, 'tabs and newlines')).toBe(5);
    expect(nextInvisible(text, 6, 'tabs and newlines')).toBe(-1);
    expect(nextInvisible('plain text\tand tabs\n', 0, 'tabs and newlines')).toBe(-1);
  });
});

describe('a log line', () => {
  it('shows bidirectional controls and format characters as visible marks', () => {
    expect(cleanText('checking \u202egnp.exe\u202c and \u2066x\u2069 \u200bok')).toBe(
      'checking <U+202E>gnp.exe<U+202C> and <U+2066>x<U+2069> <U+200B>ok',
    );
    expect(cleanText('one\u2028two')).toBe('one<U+2028>two');
  });

  it('cleans only the lines that need it, each exactly as alone', () => {
    const lines = ['plain', 'rlo \u202e here', '\u001b[31mred\u001b[0m \u200d', 'tab\tkept'];
    expect(cleanText(lines.join('\n'))).toBe(lines.map(cleanText).join('\n'));
    expect(cleanText(lines.join('\n')).split('\n')).toEqual([
      'plain',
      'rlo <U+202E> here',
      'red <U+200D>',
      'tab\tkept',
    ]);
  });
});
