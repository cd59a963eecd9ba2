/**
 * Progress of a transfer of several files: per-file bytes, and totals with a speed over a
 * sliding window and an ETA. Events are throttled so that a fast transfer does not flood
 * the bridge; the last event of each file is never dropped.
 */
export interface FileProgress {
  type: 'file';
  path: string;
  bytes: number;
  total: number;
  /** `done` when the server has the whole file, `skipped` when it had it already. */
  state: 'active' | 'done' | 'skipped' | 'failed';
}

export interface TotalProgress {
  type: 'total';
  bytes: number;
  total: number;
  filesDone: number;
  filesTotal: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Seconds left at that speed, or null while unknown. */
  eta: number | null;
}

export type ProgressEvent = FileProgress | TotalProgress;
export type ProgressListener = (event: ProgressEvent) => void;

const WINDOW_MS = 5000;
const INTERVAL_MS = 100;

function counts(state: FileProgress['state']): boolean {
  return state === 'done' || state === 'skipped';
}

/**
 * The totals are running sums, moved by each file's change, rather than summed over every
 * file at each event: since every file's last event is sent, summing made a transfer's
 * bookkeeping grow as the square of its file count (10,000 files: seconds; 40,000: over a
 * minute), where it now costs the same for each file however many there are.
 */
export class ProgressTracker {
  readonly #files = new Map<
    string,
    { bytes: number; total: number; state: FileProgress['state'] }
  >();
  readonly #listener: ProgressListener | undefined;
  readonly #samples: { at: number; bytes: number }[] = [];
  readonly #lastEmit = new Map<string, number>();
  #transferred = 0;
  /** The sums of every file's bytes and total, and the count of files done or skipped. */
  #bytes = 0;
  #total = 0;
  #filesDone = 0;

  constructor(files: Iterable<[string, number]>, listener?: ProgressListener) {
    for (const [path, total] of files) this.#files.set(path, { bytes: 0, total, state: 'active' });
    // After the map is built: a path given twice counts once, with its last total.
    for (const file of this.#files.values()) this.#total += file.total;
    this.#listener = listener;
  }

  /** Sets a file's confirmed-or-in-flight byte count (it may go down after a failure). */
  update(path: string, bytes: number, state: FileProgress['state'] = 'active'): void {
    const file = this.#files.get(path);
    if (!file) return;
    if (bytes > file.bytes) this.#transferred += bytes - file.bytes;
    this.#bytes += bytes - file.bytes;
    this.#filesDone += Number(counts(state)) - Number(counts(file.state));
    file.bytes = bytes;
    file.state = state;
    const now = Date.now();
    const final = state !== 'active';
    if (!final && now - (this.#lastEmit.get(path) ?? 0) < INTERVAL_MS) return;
    this.#lastEmit.set(path, now);
    this.#listener?.({ type: 'file', path, bytes, total: file.total, state });
    this.#emitTotal(now, final);
  }

  #emitTotal(now: number, force: boolean): void {
    if (!force && now - (this.#lastEmit.get('') ?? 0) < INTERVAL_MS) return;
    this.#lastEmit.set('', now);
    this.#samples.push({ at: now, bytes: this.#transferred });
    while (this.#samples.length > 2 && (this.#samples[0]?.at ?? now) < now - WINDOW_MS) {
      this.#samples.shift();
    }
    const first = this.#samples[0];
    const elapsed = first ? (now - first.at) / 1000 : 0;
    const speed = first && elapsed > 0 ? (this.#transferred - first.bytes) / elapsed : 0;
    const bytes = this.#bytes;
    const total = this.#total;
    const eta = speed > 0 ? (total - bytes) / speed : bytes >= total ? 0 : null;
    this.#listener?.({
      type: 'total',
      bytes,
      total,
      filesDone: this.#filesDone,
      filesTotal: this.#files.size,
      speed,
      eta,
    });
  }
}
