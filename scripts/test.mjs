#!/usr/bin/env node
// `npm test`: static checks, the build, then every test (unit, integration against the real
// Debusine sandboxes, e2e in Debian's Chromium). Stops at the first failing step and ends
// with one summary line, "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => resolve(root, 'node_modules/.bin', name);
const report = resolve(root, 'test-results/vitest.json');

const steps = [
  ['typecheck (node)', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit']],
  ['typecheck (web)', bin('tsc'), ['-p', 'tsconfig.web.json', '--noEmit']],
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
  ['format', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ['build', bin('electron-vite'), ['build']],
  [
    'tests',
    bin('vitest'),
    [
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...process.argv.slice(2),
    ],
  ],
];

rmSync(report, { force: true });
for (const [name, command, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${name} failed (${seconds} s)`);
    summarise();
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds} s)`);
}
summarise(true);

function summarise(ok = false) {
  if (!existsSync(report)) {
    if (!ok) console.log('0 passed, 1 failed');
    return;
  }
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(
    `\n${r.numPassedTests} passed, ${r.numFailedTests} failed` +
      (skipped ? `, ${skipped} skipped` : ''),
  );
}
