// The Electron security scan of `npm test`. Electronegativity is called through its module,
// which returns the findings as objects: its CSV file is written by two unordered
// asynchronous writes (the header truncates the file while the rows are appended), so the
// file it leaves sometimes starts with a cut row.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import run from '@doyensec/electronegativity';

/**
 * Findings of Electronegativity that were reviewed, each with why it is acceptable. Any
 * other finding above INFORMATIONAL fails the run. Keys are `CHECK file` (relative to src).
 */
export const REVIEWED = {
  // csp-evaluator flags every policy that allows 'self' scripts; ours allow nothing else.
  'CSP_GLOBAL_CHECK renderer/index.html': "strict policy: scripts only from 'self'",
  // The header value is a constant (WINDOW_CSP), which the scanner cannot read.
  'CSP_GLOBAL_CHECK main/app/window.ts': 'WINDOW_CSP is a constant strict policy',
  'PRELOAD_JS_CHECK main/app/window.ts':
    'the preload exposes only the contract (test/unit/electron-shell.test.ts checks it)',
  'OPEN_EXTERNAL_JS_CHECK main/app/window.ts': 'only after isExternalHttpUrl (http/https)',
  'OPEN_EXTERNAL_JS_CHECK main/app/electron-host.ts': 'only after isExternalHttpUrl (http/https)',
  'OPEN_EXTERNAL_JS_CHECK main/service/app.ts':
    "the contract's schema admits only http(s) URLs, and the host checks again",
  'OPEN_EXTERNAL_JS_CHECK main/enroll/enroll.ts':
    "the confirmation page is built from the profile's http(s) API URL (normaliseApiUrl); the host checks again",
  'OPEN_EXTERNAL_JS_CHECK main/watch/completion-router.ts':
    "only pages on the server's own origin (checked before the call); the host checks again",
  // In the renderer `openExternal` is the bridge request, not Electron's shell: main's
  // schema admits only http(s) URLs and electronHost checks again before shell.openExternal.
  'OPEN_EXTERNAL_JS_CHECK renderer/src/screens/artifacts/artifact-page.tsx':
    'a bridge request (app.openExternal): http(s) only by schema, checked again in main',
  'OPEN_EXTERNAL_JS_CHECK renderer/src/queries/work-requests.ts':
    'a bridge request (app.openExternal): http(s) only by schema, checked again in main',
  'OPEN_EXTERNAL_JS_CHECK renderer/src/screens/logs/log-viewer.tsx':
    "a bridge request (app.openExternal) for a link new URL() read as http(s) in the log's text, or the file's page: http(s) only by schema, checked again in main",
  'OPEN_EXTERNAL_JS_CHECK renderer/src/screens/logs/live-log-screen.tsx':
    "a bridge request (app.openExternal) for the step's page, which links.webui builds on the active server: http(s) only by schema, checked again in main",
  'OPEN_EXTERNAL_JS_CHECK renderer/src/screens/work-requests/workflow-filters.tsx':
    "a bridge request (app.openExternal) for the workflow list's page, which links.webui builds on the active server: http(s) only by schema, checked again in main",
  'PROTOCOL_HANDLER_JS_CHECK main/app/main.ts':
    'debusine-desktop: links are parsed into {kind, id} only (src/main/service/deep-links.ts)',
};

/** Splits findings into reviewed and open ones; informational findings are neither. */
export function classify(issues, reviewed = REVIEWED) {
  const result = { reviewed: [], open: [], informational: 0 };
  for (const issue of issues) {
    if (issue.severity.name === 'INFORMATIONAL') {
      result.informational += 1;
      continue;
    }
    const key = `${issue.id} ${issue.file}`;
    const where = `${key}:${String(issue.location.line)}:${String(issue.location.column)}`;
    if (reviewed[key]) result.reviewed.push(`${where} (${reviewed[key]})`);
    else result.open.push(`${issue.severity.name} ${where}`);
  }
  return result;
}

/** Runs the scan over src/ and prints its verdict; returns the exit code. */
export async function electronegativity(root) {
  const electron = JSON.parse(
    readFileSync(resolve(root, 'node_modules/electron/package.json'), 'utf8'),
  ).version;
  const scan = await run(
    {
      input: resolve(root, 'src'),
      isRelative: true,
      // The scanner cannot detect the version offline, and would assume 0.1.0.
      electronVersionOverride: electron,
    },
    false,
  );
  // A file the scanner could not parse was not scanned, so its findings are unknown; its
  // "tolerable" errors are parser warnings on files it did scan.
  const unscanned = scan.errors.filter((e) => !e.tolerable);
  if (unscanned.length > 0) {
    for (const e of unscanned) console.error(`  not scanned: ${e.file}: ${e.message}`);
    console.error(`Electronegativity could not parse ${String(unscanned.length)} file(s)`);
    return 1;
  }
  const verdict = classify(scan.issues);
  for (const line of verdict.reviewed) console.log(`  reviewed: ${line}`);
  if (verdict.open.length > 0) {
    console.error(
      `Electronegativity findings above informational:\n  ${verdict.open.join('\n  ')}`,
    );
    return 1;
  }
  console.log(`Electronegativity: ${String(scan.issues.length)} findings, none open`);
  return 0;
}
