/**
 * Where each line of a file starts, built as the bytes arrive, so that any window of lines
 * is one read away without ever holding the text.
 *
 * A line ends at LF, at CRLF (one end, not two) or at a lone CR. A CR at the very end of
 * the bytes seen so far is held back until the next byte says which it was. Offsets live in
 * a typed array grown by doubling: 4 bytes a line (8 past 4 GiB), about 6 MB for 1.5 M
 * lines, where an array of numbers would take several times that and a string per line
 * the whole file again.
 */

const LF = 10;
const CR = 13;
const UINT32_MAX = 2 ** 32 - 1;

export class LineIndex {
  /** starts[0] = 0; starts[i] is where line i begins once the line before it ended. */
  #starts: Uint32Array | Float64Array = new Uint32Array(4096);
  #count = 1;
  #bytes = 0;
  /** The last byte seen was a CR whose line end is not known yet (CR or CRLF). */
  #pendingCr = false;
  #finished = false;

  /** Bytes seen so far. */
  get bytes(): number {
    return this.#bytes;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Lines whose end is known: every line once `finish` was called. */
  get lines(): number {
    if (!this.#finished) return this.#count - 1;
    return this.#start(this.#count - 1) < this.#bytes ? this.#count : this.#count - 1;
  }

  /** Memory held by the offsets, in bytes. */
  get memory(): number {
    return this.#starts.byteLength;
  }

  /** Takes the next bytes of the file, in order. */
  push(chunk: Uint8Array): void {
    if (this.#finished) throw new Error('LineIndex: push after finish');
    if (chunk.length === 0) return;
    const base = this.#bytes;
    let from = 0;
    if (this.#pendingCr) {
      this.#pendingCr = false;
      if (chunk[0] === LF) {
        this.#add(base + 1);
        from = 1;
      } else {
        this.#add(base);
      }
    }
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (buffer.indexOf(CR, from) === -1) {
      // The common case (no CR at all), on memchr rather than a loop over every byte.
      for (let at = buffer.indexOf(LF, from); at !== -1; at = buffer.indexOf(LF, at + 1)) {
        this.#add(base + at + 1);
      }
    } else {
      this.#scanWithCr(buffer, from, base);
    }
    this.#bytes = base + chunk.length;
  }

  /** Ends the file: a CR held back ends its line, and the offsets are trimmed to fit. */
  finish(): void {
    if (this.#finished) return;
    if (this.#pendingCr) {
      this.#pendingCr = false;
      this.#add(this.#bytes);
    }
    this.#finished = true;
    this.#starts = this.#starts.slice(0, this.#count);
  }

  /** Where line `line` begins. */
  start(line: number): number {
    this.#check(line);
    return this.#start(line);
  }

  /** Where the line after `line` begins (past its end of line), or the end of the file. */
  next(line: number): number {
    this.#check(line);
    return line + 1 < this.#count ? this.#start(line + 1) : this.#bytes;
  }

  /**
   * The line that byte `offset` belongs to (an end of line belongs to the line it ends);
   * `offset` must be inside the lines whose end is known. `after`, when given, is a line
   * known to start at or before `offset` (a search going forward passes the last line it
   * found): the search gallops from there, a few steps for a hit near the last one, and
   * is a binary search over the offsets otherwise (about 23 steps at 10 M lines). Nothing
   * is kept for it.
   */
  lineOf(offset: number, after = 0): number {
    const lines = this.lines;
    if (!Number.isFinite(offset) || offset < 0 || lines === 0 || offset >= this.next(lines - 1)) {
      throw new RangeError(`LineIndex: byte ${String(offset)} is in no known line`);
    }
    const starts = this.#starts;
    let lo = Math.min(Math.max(0, Math.floor(after)), lines - 1);
    if ((starts[lo] ?? 0) > offset) lo = 0;
    // Galloping: the first step past `offset` bounds the binary search.
    let hi = lines - 1;
    for (let step = 1; lo + step < lines; step *= 2) {
      if ((starts[lo + step] ?? 0) > offset) {
        hi = lo + step - 1;
        break;
      }
      lo += step;
    }
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Where a run of short lines from `from` (before `to`) ends: lines are taken while each
   * is at most `limit` bytes (end of line included) and the run at most `span` (its first
   * line always, if short). Returns `from` when line `from` itself is long.
   */
  runEnd(from: number, to: number, span: number, limit: number): number {
    this.#check(from);
    const last = Math.min(to, this.lines);
    const starts = this.#starts;
    const runStart = this.#start(from);
    let end = from;
    while (end < last) {
      const next = end + 1 < this.#count ? (starts[end + 1] ?? 0) : this.#bytes;
      if (next - (starts[end] ?? 0) > limit || (end > from && next - runStart > span)) break;
      end++;
    }
    return end;
  }

  #scanWithCr(buffer: Buffer, from: number, base: number): void {
    const end = buffer.length;
    for (let at = from; at < end; at++) {
      const byte = buffer[at];
      if (byte === LF) {
        this.#add(base + at + 1);
      } else if (byte === CR) {
        if (at + 1 === end) {
          this.#pendingCr = true;
        } else if (buffer[at + 1] === LF) {
          this.#add(base + at + 2);
          at++;
        } else {
          this.#add(base + at + 1);
        }
      }
    }
  }

  #start(line: number): number {
    return this.#starts[line] ?? 0;
  }

  #check(line: number): void {
    if (!Number.isInteger(line) || line < 0 || line >= this.lines) {
      throw new RangeError(`LineIndex: no line ${String(line)} (${String(this.lines)} lines)`);
    }
  }

  #add(offset: number): void {
    const narrow = this.#starts instanceof Uint32Array;
    if (this.#count === this.#starts.length || (narrow && offset > UINT32_MAX)) this.#grow(offset);
    this.#starts[this.#count++] = offset;
  }

  #grow(offset: number): void {
    const wide = this.#starts instanceof Float64Array || offset > UINT32_MAX;
    const size =
      this.#count === this.#starts.length ? this.#starts.length * 2 : this.#starts.length;
    const next = wide ? new Float64Array(size) : new Uint32Array(size);
    next.set(this.#starts.subarray(0, this.#count));
    this.#starts = next;
  }
}
