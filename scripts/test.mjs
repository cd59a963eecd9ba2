#!/usr/bin/env node
// `npm test`: the Debian packages the tests need, static checks, the build, then every test
// (unit, integration against the real Debusine sandboxes, e2e in Debian's Chromium). Stops at
// the first failing step and ends with one summary line, "N passed, N failed", in which a
// failed step before the tests counts as a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages, neededGroups } from './debian-packages.mjs';
import { electronegativity } from './electronegativity.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => resolve(root, 'node_modules/.bin', name);
const report = resolve(root, 'test-results/vitest.json');
const sandboxLog = resolve(root, 'test-results/sandbox-up.log');
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
  ['Debusine sandboxes (started)', () => startSandboxes()],
  // One full check of both projects: scripts/deprecated.mjs reports every error tsc
  // --noEmit does, and the uses of deprecated declarations besides. Running tsc as well
  // checked every file twice (83 s here, beside the 52 s of this one).
  ['typecheck, with deprecated APIs', process.execPath, [resolve(root, 'scripts/deprecated.mjs')]],
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
  ['Debusine sandboxes (ready)', () => sandboxesReady()],
  [
    'tests',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...vitestArgs],
  ],
];

/**
 * The sandboxes are brought up (test/debusine-server/sandbox.sh) while the static checks and
 * the build run: the first time on a machine that builds their chroots and the build
 * environment, minutes of downloads and unpacking that need little of what the checks use.
 * Later runs find them built and start them in seconds. The tests' global set-up then finds
 * them running. Not when the tests need no sandbox, point at servers of their own, or are
 * told not to (DEBUSINE_SANDBOX_SKIP_UP), nor as another user than root (the global set-up
 * says why the sandboxes need root).
 */
let sandboxes;

function startSandboxes() {
  const wanted =
    neededGroups(vitestArgs).has('sandbox') &&
    !process.env.DEBUSINE_SANDBOX_SKIP_UP &&
    process.getuid?.() === 0;
  if (!wanted) {
    console.log('not needed here');
    return 0;
  }
  mkdirSync(dirname(sandboxLog), { recursive: true });
  const out = openSync(sandboxLog, 'w');
  const started = Date.now();
  const child = spawn('bash', [resolve(root, 'test/debusine-server/sandbox.sh'), 'up', 'all'], {
    cwd: root,
    stdio: ['ignore', out, out],
    detached: true,
  });
  const done = new Promise((resolveDone) => {
    child.on('error', (error) => resolveDone({ status: 1, error, ended: Date.now() }));
    child.on('exit', (status) => resolveDone({ status: status ?? 1, ended: Date.now() }));
  });
  sandboxes = { child, done, started };
  // A failed check ends the run: the sandboxes' start is stopped with it (its chroots are
  // built aside and renamed into place, so a stop leaves no half-built one).
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  });
  console.log(`bringing them up beside the checks below; its output: ${sandboxLog}`);
  return 0;
}

async function sandboxesReady() {
  if (!sandboxes) {
    console.log('not started by this run');
    return 0;
  }
  const { status, error, ended } = await sandboxes.done;
  const seconds = ((ended - sandboxes.started) / 1000).toFixed(0);
  const tail = readFileSync(sandboxLog, 'utf8').trim().split('\n');
  if (status === 0) {
    console.log(
      `up in ${seconds} s, beside the checks above: ${tail.filter((l) => / ready at /.test(l)).join('; ')}`,
    );
    return 0;
  }
  console.error(
    `sandbox.sh up all failed (exit ${String(status)}${error ? `: ${error.message}` : ''}); the end of ${sandboxLog}:`,
  );
  console.error(tail.slice(-25).join('\n'));
  return 1;
}

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
