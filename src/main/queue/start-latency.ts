/**
 * How long a task usually waits to start, from the server's `open-metrics/` text: the
 * histogram `debusine_work_request_start_latency`, labelled by task type, task name and
 * priority. Only that histogram is read; every other line is passed over. The text is the
 * server's, so it is bounded, and a line that does not parse is skipped rather than trusted.
 */

import { METRICS_LIMIT } from '../api/service-status';

/** The histogram's name in the exposition format. */
const METRIC = 'debusine_work_request_start_latency';
/**
 * The text is read no further than the API reads the answer (METRICS_LIMIT bytes, so at
 * most as many characters): a caller that brings its own text is held to the same bound.
 */
export const MAX_METRICS_CHARS = METRICS_LIMIT;
/** Fewer starts than this say nothing about what is usual. */
export const MIN_SAMPLES = 3;

export interface LatencyHistogram {
  /** Cumulative counts by upper bound in seconds (Infinity for `+Inf`). */
  buckets: Map<number, number>;
  count: number;
}

/** `task_type/task_name` → the histogram, all priorities summed. */
export type StartLatencies = Map<string, LatencyHistogram>;

export function latencyKey(taskType: string, taskName: string): string {
  return `${taskType}/${taskName}`;
}

const LINE = new RegExp(`^${METRIC}_(bucket|count)\\{([^}]*)\\} (\\S+)(?: \\S+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function labelsOf(text: string): Map<string, string> {
  const labels = new Map<string, string>();
  for (const m of text.matchAll(LABEL)) {
    const [, name, value] = m;
    if (name !== undefined && value !== undefined) labels.set(name, value);
  }
  return labels;
}

/** Parses the start-latency histogram out of an open-metrics text. */
export function parseStartLatencies(text: string): StartLatencies {
  const out: StartLatencies = new Map();
  const bounded = text.length > MAX_METRICS_CHARS ? text.slice(0, MAX_METRICS_CHARS) : text;
  for (const line of bounded.split('\n')) {
    if (!line.startsWith(METRIC)) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const [, kind, labelText, valueText] = m;
    const value = Number(valueText);
    if (!Number.isFinite(value) || value < 0) continue;
    const labels = labelsOf(labelText ?? '');
    const type = labels.get('task_type');
    const name = labels.get('task_name');
    if (type === undefined || name === undefined) continue;
    let bound = 0;
    if (kind === 'bucket') {
      const le = labels.get('le');
      bound = le === '+Inf' ? Infinity : Number(le);
      if (le === undefined || le === '' || Number.isNaN(bound) || bound < 0) continue;
    }
    const key = latencyKey(type, name);
    let histogram = out.get(key);
    if (!histogram) {
      histogram = { buckets: new Map(), count: 0 };
      out.set(key, histogram);
    }
    if (kind === 'count') histogram.count += value;
    else histogram.buckets.set(bound, (histogram.buckets.get(bound) ?? 0) + value);
  }
  return out;
}

export type UsualStart =
  | { kind: 'within'; seconds: number; samples: number }
  /** Half of the starts took longer than the histogram's last finite bound. */
  | { kind: 'longer'; seconds: number; samples: number }
  | { kind: 'unknown'; reason: 'no-metrics' | 'too-few'; samples: number };

/**
 * The bound within which half of the recent starts of this task began: the histogram's
 * buckets are all the server gives, so the answer is a bucket's bound, never a finer guess.
 */
export function usualStart(
  latencies: StartLatencies | null,
  taskType: string,
  taskName: string,
): UsualStart {
  if (latencies === null) return { kind: 'unknown', reason: 'no-metrics', samples: 0 };
  const histogram = latencies.get(latencyKey(taskType, taskName));
  const samples = histogram?.count ?? 0;
  if (!histogram || samples < MIN_SAMPLES) return { kind: 'unknown', reason: 'too-few', samples };
  const bounds = [...histogram.buckets.keys()].sort((a, b) => a - b);
  let lastFinite = 0;
  for (const bound of bounds) {
    if (Number.isFinite(bound)) lastFinite = bound;
    if ((histogram.buckets.get(bound) ?? 0) * 2 >= samples) {
      return Number.isFinite(bound)
        ? { kind: 'within', seconds: bound, samples }
        : { kind: 'longer', seconds: lastFinite, samples };
    }
  }
  return { kind: 'longer', seconds: lastFinite, samples };
}
