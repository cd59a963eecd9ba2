#!/usr/bin/env node
// `npm test`: the Debian packages the tests need, static checks, the build, then every test
// (unit, integration against the real Debusine sandboxes, e2e in Debian's Chromium). Stops at
// the first failing step and ends with one summary line, "N passed, N failed", in which a
// failed step before the tests counts as a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from './debian-packages.mjs';
import { electronegativity } from './electronegativity.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => resolve(root, 'node_modules/.bin', name);
const report = resolve(root, 'test-results/vitest.json');
const vitestArgs = process.argv.slice(2);

if (vitestArgs[0] === '--electronegativity') process.exit(await electronegativity(root));

/**
 * Typed linting spends most of its time in the TypeScript checker, whose many short-lived
 * objects make V8's default young generation collect over and over: a larger one took the
 * whole lint from 120 s to 109 s here. `npm run lint` passes the same flag.
 */
const LINT_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Each step is a command, or a function returning an exit code. */
const steps = [
  ['Debian packages', () => packages()],
  ['typecheck (node)', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit']],
  ['typecheck (web)', bin('tsc'), ['-p', 'tsconfig.web.json', '--noEmit']],
  [
    'lint',
    process.execPath,
    [
      ...LINT_NODE_FLAGS,
      resolve(root, 'node_modules/eslint/bin/eslint.js'),
      '--max-warnings=0',
      '.',
    ],
  ],
  ['format', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ['build', bin('electron-vite'), ['build']],
  ['electronegativity', () => electronegativity(root)],
  [
    'tests',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...vitestArgs],
  ],
];

function packages() {
  const problem = ensureDebianPackages(vitestArgs);
  if (!problem) return 0;
  console.error(problem);
  return 1;
}

rmSync(report, { force: true });
for (const [name, command, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const status =
    typeof command === 'function'
      ? await command()
      : spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    console.error(`✖ ${name} failed (${seconds} s)`);
    summarise(name);
    process.exit(status ?? 1);
  }
  console.log(`✔ ${name} (${seconds} s)`);
}
summarise();

/**
 * The closing line. When a step failed, at least one failure is counted: a step before the
 * tests, or a vitest run that failed outside any test (a global set-up that threw, a file
 * that did not load), would otherwise read "0 failed".
 */
function summarise(failedStep) {
  const r = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined;
  const passed = r?.numPassedTests ?? 0;
  const failedTests = r?.numFailedTests ?? 0;
  const failed = failedStep ? Math.max(failedTests, 1) : failedTests;
  const skipped = r ? r.numPendingTests + r.numTodoTests : 0;
  if (failedStep && failedTests === 0) console.log(`(counted as failed: the step "${failedStep}")`);
  console.log(`\n${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
}
