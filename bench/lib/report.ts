import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MachineInfo } from './machine';
import type { Stats } from './stats';

export interface Measurement {
  scenario: string;
  /** Who did the work: `app`, `cli`, `curl`, `curl ×4`, `openssl`, … */
  subject: string;
  stats: Stats;
  /** Bytes moved or hashed per run, for throughput. */
  bytes?: number;
  note?: string;
}

export interface Target {
  scenario: string;
  description: string;
  /** The measured value and the bound, as the README states them. */
  value: number;
  bound: string;
  met: boolean;
}

export interface BenchReport {
  machine: MachineInfo;
  server: { version: string; apiUrl: string };
  measurements: Measurement[];
  targets: Target[];
  notes: string[];
}

const RESULTS = resolve(import.meta.dirname, '../results');
const README = resolve(import.meta.dirname, '../../README.md');

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

function throughput(m: Measurement): string {
  if (!m.bytes) return '';
  return `${(m.bytes / 2 ** 20 / (m.stats.medianMs / 1000)).toFixed(0)} MiB/s`;
}

export function markdown(report: BenchReport): string {
  const lines = [
    `Measured ${report.machine.date} on ${report.machine.cpuModel} (${String(report.machine.cores)} cores, ${String(report.machine.memoryGiB)} GiB), Linux ${report.machine.kernel}, Node ${report.machine.node}, ${report.machine.openssl}, ${report.machine.curl.split(' ').slice(0, 2).join(' ')}, Debusine ${report.server.version} (the sandbox, same machine).`,
    '',
    '| scenario | subject | median | min | max | throughput | vs app |',
    '|---|---|---|---|---|---|---|',
  ];
  const firstOf = new Map<string, number>();
  for (const m of report.measurements) {
    if (!firstOf.has(m.scenario)) firstOf.set(m.scenario, m.stats.medianMs);
    const base = firstOf.get(m.scenario) ?? m.stats.medianMs;
    const ratio = base > 0 ? `${(m.stats.medianMs / base).toFixed(2)}×` : '';
    const subject = `${m.subject}${m.note ? ` (${m.note})` : ''}`.replaceAll('|', '\\|');
    lines.push(
      `| ${m.scenario} | ${subject} | ${fmt(m.stats.medianMs)} | ${fmt(m.stats.minMs)} | ${fmt(m.stats.maxMs)} | ${throughput(m)} | ${ratio} |`,
    );
  }
  if (report.targets.length > 0) {
    lines.push('', '| target | measured | bound | met |', '|---|---|---|---|');
    for (const t of report.targets) {
      lines.push(
        `| ${t.description} | ${t.value.toFixed(2)} | ${t.bound} | ${t.met ? 'yes' : '**no**'} |`,
      );
    }
  }
  if (report.notes.length > 0) lines.push('', ...report.notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

/** Writes bench/results/<date>.json and .md, and the README's table between its markers. */
export function writeReport(report: BenchReport, options: { readme?: boolean } = {}): string {
  mkdirSync(RESULTS, { recursive: true });
  const stamp = report.machine.date.replace(/[:.]/g, '-');
  const md = markdown(report);
  writeFileSync(join(RESULTS, `${stamp}.json`), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(RESULTS, `${stamp}.md`), md);
  writeFileSync(join(RESULTS, 'latest.md'), md);
  const readme = readFileSync(README, 'utf8');
  const begin = '<!-- bench:begin -->';
  const end = '<!-- bench:end -->';
  const i = readme.indexOf(begin);
  const j = readme.indexOf(end);
  if (options.readme !== false && i >= 0 && j > i) {
    writeFileSync(README, readme.slice(0, i + begin.length) + '\n' + md + readme.slice(j));
  }
  return md;
}
