/**
 * What the bench's child processes (an upload, a log viewer) read of their own memory, so
 * that a scenario's RSS is the one process that did the work, not the bench runner.
 */
import { readFileSync } from 'node:fs';

/** A field of /proc/self/status (`VmRSS`, `VmHWM`), in bytes. */
function status(field: string): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}

export interface Memory {
  rss: number;
  /** The peak RSS so far. */
  hwm: number;
}

export function ownMemory(): Memory {
  return { rss: status('VmRSS'), hwm: status('VmHWM') };
}

/** The child's one line of output: memory before the work and now, then its own figures. */
export function reportMemory(before: Memory, figures: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ before, after: ownMemory(), ...figures }) + '\n');
}
