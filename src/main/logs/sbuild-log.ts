/**
 * What an sbuild build log says, read in one pass, line by line, as the log arrives:
 *
 * - the outline: the boxed headers sbuild prints (`+====+` around the package line,
 *   `+----+` around each section, or the same boxes drawn with Unicode lines in older
 *   releases; a date at the right of the title is split off), the underlined steps inside
 *   a section (`dpkg-buildpackage` over a line of as many dashes), and the summary lines
 *   at the end (`Status:`, `Fail-Stage:`, `Build-Time:`, `Build needed …`);
 * - the summary: the `Key: value` lines of the Summary section;
 * - the lines that look like errors (`E:`, `error:`, `make: ***`, `dh_…: error`,
 *   `dpkg-buildpackage died`);
 * - "the error", where the build broke: the first line inside the Build section that is
 *   a make failure (`make: ***`, `make[2]: ***`), a compiler's or linker's `error:`, or a
 *   debhelper `dh_…: error`; without one, the first `E:` line. Never a line of the summary
 *   at the end, which only repeats that it failed. None for a successful build.
 *
 * Lines are given as the viewer shows them (line-text.ts), with their 0-based numbers.
 * Everything kept is bounded, whatever the log holds.
 */
import type { SbuildLogAnalysis, SbuildOutlineEntry, SbuildSummary } from '../../shared/log-types';

const MAX_OUTLINE = 2000;
const MAX_ERROR_LINES = 1000;
const MAX_FIELDS = 64;
const MAX_TITLE = 200;
const MAX_VALUE = 1000;

const BORDER = /^(?:\+([=-])\1{2,}\+|([╔┌])[═─]{3,}[╗┐]|([╚└])[═─]{3,}[╝┘])$/;
const BOX_ROW = /^[|║│] (.*?) *[|║│]$/;
// `Sat, 18 Feb 2023 12:00:43 +0000` (current sbuild) or `18 Feb 2023 12:00` (older ones).
const TRAILING_DATE =
  / {2,}((?:[A-Z][a-z]{2}, )?\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}(?::\d{2})?(?: [+-]\d{4})?)$/;
const FIELD = /^([A-Z][A-Za-z0-9]*(?:[ -][A-Za-z0-9]+)*): (.*)$/;
const BUILD_NEEDED = /^Build needed (\d+):(\d{2}):(\d{2})\b/;
const OUTLINED_FIELDS = new Set(['Status', 'Fail-Stage', 'Build-Time']);

const ERROR_LINE = [
  /^E: /,
  // Lower case only: test summaries print `# ERROR: 0` in builds that went well.
  /\berror:/,
  /^make(?:\[\d+\])?: \*\*\*/,
  /dpkg-buildpackage died/,
  /\bdh_[a-z0-9_]+: error\b/,
];
const BREAK_LINE = [
  /^make(?:\[\d+\])?: \*\*\* /,
  // file.c:12:5: error: …  (gcc, clang, and most compilers after them)
  /^[^\s:]+:\d+(?::\d+)?: (?:fatal )?error: /,
  /^(?:\S*\/)?(?:cc1(?:plus)?|gcc|g\+\+|c\+\+|cc|clang(?:\+\+)?|ld(?:\.\w+)?|collect2|rustc)(?:-[\d.]+)?: (?:fatal )?error: /,
  /^error(?:\[E\d+\])?: /,
  /^\s*dh_[a-z0-9_]+: error: /,
];

function cap(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function mayBeError(text: string): boolean {
  return (
    text.startsWith('E: ') || text.includes('rror') || text.includes('***') || text.includes('died')
  );
}

export class SbuildLogAnalyzer {
  readonly #outline: SbuildOutlineEntry[] = [];
  readonly #fields: Record<string, string> = {};
  readonly #errorLines: number[] = [];
  #errorLineCount = 0;
  #buildBreak: { line: number; text: string } | null = null;
  #firstE: { line: number; text: string } | null = null;
  #section: string | null = null;
  #duration: number | null = null;
  /** The two lines before the current one, for boxes (three lines) and underlines (two). */
  #back1: { text: string; line: number } | null = null;
  #back2: { text: string; line: number } | null = null;

  push(text: string, line: number): void {
    const first = text.charAt(0);
    if (first !== '' && '+╔╚┌└'.includes(first)) this.#border(text);
    else if ((first === '-' || first === '─') && this.#back1) this.#underline(text);
    if (this.#section === 'Summary') this.#field(text, line);
    const needed = text.startsWith('Build needed ') ? BUILD_NEEDED.exec(text) : null;
    if (needed) {
      const [, h, m, s] = needed;
      this.#duration = Number(h) * 3600 + Number(m) * 60 + Number(s);
      this.#add({ title: cap(text, MAX_TITLE), line, kind: 'summary', date: null });
    }
    if (mayBeError(text)) this.#error(text, line);
    this.#back2 = this.#back1;
    this.#back1 = { text, line };
  }

  finish(): SbuildLogAnalysis {
    const f = this.#fields;
    const number = (value: string | undefined) =>
      value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
    const summary: SbuildSummary = {
      status: f.Status ?? null,
      failStage: f['Fail-Stage'] ?? null,
      buildTime: number(f['Build-Time']),
      duration: this.#duration,
      package: f.Package ?? null,
      version: f.Version ?? null,
      distribution: f.Distribution ?? null,
      architecture: f['Host Architecture'] ?? f.Architecture ?? null,
      fields: { ...f },
    };
    const error = summary.status === 'successful' ? null : (this.#buildBreak ?? this.#firstE);
    return {
      kind: 'sbuild',
      outline: [...this.#outline],
      summary,
      errorLines: [...this.#errorLines],
      errorLineCount: this.#errorLineCount,
      error,
    };
  }

  #add(entry: SbuildOutlineEntry): void {
    if (this.#outline.length < MAX_OUTLINE) this.#outline.push(entry);
  }

  /** A closing border: with a title row and an opening border of the same kind above it. */
  #border(text: string): void {
    const bottom = BORDER.exec(text);
    const top = this.#back2 && BORDER.exec(this.#back2.text);
    const row = this.#back1 && BOX_ROW.exec(this.#back1.text);
    if (!bottom || !top || !row || !this.#back2) return;
    const double = (m: RegExpExecArray) => m[1] === '=' || m[0].includes('═');
    if (double(bottom) !== double(top) || top[3] !== undefined || bottom[2] !== undefined) return;
    let title = (row[1] ?? '').trim();
    let date: string | null = null;
    const dated = TRAILING_DATE.exec(title);
    if (dated) {
      date = dated[1] ?? null;
      title = title.slice(0, dated.index).trim();
    }
    const kind = double(top) ? 'package' : 'section';
    if (kind === 'section') this.#section = title;
    this.#add({ title: cap(title, MAX_TITLE), line: this.#back2.line, kind, date });
  }

  /** A step: a title over a line of as many dashes. */
  #underline(text: string): void {
    const above = this.#back1;
    if (above?.text.length !== text.length || text.length > 100) return;
    if (!/^(?:-+|─+)$/.test(text) || /^[\s\-─]/.test(above.text)) return;
    this.#add({
      title: cap(above.text.trim(), MAX_TITLE),
      line: above.line,
      kind: 'step',
      date: null,
    });
  }

  #field(text: string, line: number): void {
    const m = FIELD.exec(text);
    if (!m) return;
    const [, key = '', value = ''] = m;
    if (Object.keys(this.#fields).length < MAX_FIELDS && !Object.hasOwn(this.#fields, key)) {
      this.#fields[key] = cap(value.trim(), MAX_VALUE);
    }
    if (OUTLINED_FIELDS.has(key)) {
      this.#add({ title: cap(text, MAX_TITLE), line, kind: 'summary', date: null });
    }
  }

  #error(text: string, line: number): void {
    if (!ERROR_LINE.some((re) => re.test(text))) return;
    this.#errorLineCount++;
    if (this.#errorLines.length < MAX_ERROR_LINES) this.#errorLines.push(line);
    const found = { line, text: cap(text, MAX_VALUE) };
    if (!this.#firstE && text.startsWith('E: ')) this.#firstE = found;
    if (!this.#buildBreak && this.#section === 'Build' && BREAK_LINE.some((re) => re.test(text))) {
      this.#buildBreak = found;
    }
  }
}

/** Whether a file is an sbuild log worth analysing: by its name, or by its first line. */
export function isSbuildLog(path: string, firstLine: string): boolean {
  return path.endsWith('.build') || firstLine.startsWith('sbuild (Debian sbuild)');
}

/** The analysis of a whole log given as lines (tests, and logs already in memory). */
export function analyseSbuildLog(lines: Iterable<string>): SbuildLogAnalysis {
  const analyzer = new SbuildLogAnalyzer();
  let line = 0;
  for (const text of lines) analyzer.push(text, line++);
  return analyzer.finish();
}
