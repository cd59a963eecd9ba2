/**
 * `npm run bench`: measures the app against curl, the Debusine CLI and OpenSSL on the
 * current sandbox, side by side in one run, and writes bench/results/ and the README's
 * table. Options: `--runs N` (default 3), `--quick` (small sizes, for trying things out),
 * `--only a,b` (scenarios: upload-big, upload-small, upload-source, upload-changes, download, hash, list,
 * completion, replay, rss, renderer, logs, logs-renderer), `--no-readme` (leave the README alone). The renderer scenario
 * drives the built app (`npm run build` first) in Chromium.
 */
import { parseArgs } from 'node:util';
import { BenchContext, FULL, QUICK } from './lib/context';
import { machineInfo } from './lib/machine';
import { writeReport, type BenchReport } from './lib/report';
import { readFileSync } from 'node:fs';
import { ANALYSIS, RENDERER } from './lib/notes';
import { cleanData } from './lib/data';
import { currentServer } from './lib/server';
import { completionLatency } from './scenarios/completion';
import { download } from './scenarios/download';
import { hash } from './scenarios/hash';
import { listWorkRequests } from './scenarios/list';
import { logViewer } from './scenarios/logs';
import { logViewerRenderer } from './scenarios/log-renderer';
import { rendererList } from './scenarios/renderer';
import { replayAfterOutage } from './scenarios/replay';
import { rssDuringUpload } from './scenarios/rss';
import {
  uploadBigFile,
  uploadChanges,
  uploadSmallFiles,
  uploadSourcePackage,
} from './scenarios/upload';

const SCENARIOS: Record<string, (ctx: BenchContext) => Promise<void>> = {
  'upload-big': uploadBigFile,
  'upload-small': uploadSmallFiles,
  'upload-source': uploadSourcePackage,
  'upload-changes': uploadChanges,
  download,
  hash,
  list: listWorkRequests,
  completion: completionLatency,
  replay: replayAfterOutage,
  rss: rssDuringUpload,
  renderer: rendererList,
  logs: logViewer,
  'logs-renderer': logViewerRenderer,
};

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'no-readme': { type: 'boolean', default: false },
    /** Re-renders a saved result (bench/results/<date>.json) into the markdown and README. */
    rerender: { type: 'string' },
  },
});
if (values.rerender !== undefined) {
  const saved = JSON.parse(readFileSync(values.rerender, 'utf8')) as BenchReport;
  // The measured notes stay; the analysis is today's.
  const measured = saved.notes.filter((n) =>
    /^(RSS during|Renderer, measured|Scenario |\d+ runs per)/.test(n),
  );
  saved.notes = [
    ...measured.filter((n) => !/^\d+ runs per/.test(n)),
    ...ANALYSIS,
    RENDERER,
    ...measured.filter((n) => /^\d+ runs per/.test(n)),
  ];
  process.stdout.write(writeReport(saved, { readme: !values['no-readme'] }));
  process.exit(0);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: not a positive integer`);
const only = values.only?.split(',').map((s) => s.trim()) ?? Object.keys(SCENARIOS);
for (const name of only) {
  if (!(name in SCENARIOS))
    throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
}

const server = currentServer();
const ctx = new BenchContext(server, runs, values.quick ? QUICK : FULL, values.quick);
const machine = machineInfo();
const started = Date.now();
const failed: string[] = [];
try {
  for (const name of only) {
    const scenario = SCENARIOS[name];
    if (!scenario) continue;
    ctx.log(`— ${name}`);
    const t = Date.now();
    try {
      await scenario(ctx);
    } catch (error) {
      failed.push(name);
      ctx.notes.push(
        `Scenario ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      ctx.log(
        `${name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    ctx.log(`— ${name} took ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
} finally {
  cleanData(server.root);
  await ctx.client.close();
}

ctx.notes.push(
  ...ANALYSIS,
  RENDERER,
  `${String(runs)} runs per measurement${values.quick ? ', quick sizes' : ''}; the whole run took ${((Date.now() - started) / 60000).toFixed(1)} min. Ratios are within this run; absolute times vary on this shared machine.`,
);
const md = writeReport(
  {
    machine,
    server: { version: server.serverVersion, apiUrl: server.apiUrl },
    measurements: ctx.measurements,
    targets: ctx.targets,
    notes: ctx.notes,
  },
  { readme: !values['no-readme'] && !values.quick && values.only === undefined },
);
process.stdout.write(md);
if (failed.length > 0) {
  process.stderr.write(`failed scenarios: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
