/**
 * Watching a pipeline the way the real debian_pipeline runs, against a fake Debusine whose
 * table of work requests the test moves along as the server would (the sandbox's worker
 * cannot be told to create steps late, nor to fail a build on cue):
 *
 * - the workflow's page, opened before the server has made any step, shows each step as
 *   the server creates it, pending, blocked or running, within seconds and with no
 *   completion sent; then sums up what the steps made: the build log, the packages,
 *   lintian's counts, where the upload went;
 * - a watched pipeline whose build fails ends aborted (its QA steps aborted, the root
 *   aborted, and no completion for either, as Debusine does): the app notifies it once,
 *   naming the failed step and the log line, and its "Open log" opens the log there.
 *
 * The artifacts are those real tasks produced on the project's sandbox
 * (test/unit/fixtures/real-work).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/app';
import { fakeAppSession, goTo, goToTab, screenshotsInBothThemes } from '../support/e2e';
import type { FakeDebusine, FakeFile } from '../support/fake-debusine';
import { row, serveWorkRequests, type FakeWorkRequests } from '../support/fake-work-requests';

const FIXTURES = join(import.meta.dirname, '../unit/fixtures/real-work');
const BROKEN_LOG = readFileSync(join(FIXTURES, 'ddt-broken-failed.build'), 'utf8');
const HELLO_LOG = readFileSync(join(FIXTURES, 'ddt-hello-success.build'), 'utf8');

/** Serves a real artifact's record (category, data, file names) with `content` as its files. */
function serveFixture(fake: FakeDebusine, id: number, content: (path: string) => string): void {
  const record = JSON.parse(
    readFileSync(join(FIXTURES, `artifact-${String(id)}.json`), 'utf8'),
  ) as {
    category: string;
    data: Record<string, unknown>;
    files: Record<string, unknown>;
  };
  const files: FakeFile[] = Object.keys(record.files).map((path) => ({
    path,
    content: content(path),
  }));
  fake.artifact(id, files, { fields: { category: record.category, data: record.data } });
}

/** Creation times a second apart, from now: the list is newest first by creation time. */
let clock = Date.now() - 60_000;
const created = (): string => new Date((clock += 1000)).toISOString();
const now = (): string => new Date().toISOString();

const running = (): Record<string, unknown> => ({ status: 'running', started_at: now() });
const done = (result: string): Record<string, unknown> => ({
  status: 'completed',
  result,
  completed_at: now(),
  duration: 42.5,
});
const aborted = (): Record<string, unknown> => ({
  status: 'aborted',
  result: '',
  completed_at: now(),
});

/** A debian_pipeline root, as Start leaves it: pending, with no step yet. */
function pipelineRoot(work: FakeWorkRequests, id: number): void {
  work.set(
    row(id, {
      created_at: created(),
      task_type: 'Workflow',
      task_name: 'debian_pipeline',
      workflow_root: id,
      workflow_data: { workflow_template_name: 'debian-pipeline-trixie' },
    }),
  );
}

/**
 * What the orchestrator adds under the root: the sbuild sub-workflow and its build, the QA
 * sub-workflow and its lintian step (blocked on the build), the upload (blocked too).
 */
function populate(work: FakeWorkRequests, root: number): void {
  const step = (id: number, parent: number, fields: Record<string, unknown>) => {
    work.set(row(id, { created_at: created(), workflow_root: root, parent, ...fields }));
  };
  step(root + 1, root, {
    task_type: 'Workflow',
    task_name: 'sbuild',
    ...running(),
    workflow_data: { display_name: 'sbuild', step: 'sbuild' },
  });
  step(root + 2, root + 1, {
    task_name: 'sbuild',
    ...running(),
    task_data: { build_architecture: 'amd64', backend: 'unshare' },
    workflow_data: { display_name: 'Build amd64', step: 'build-amd64' },
  });
  step(root + 3, root, {
    task_type: 'Workflow',
    task_name: 'qa',
    status: 'pending',
    workflow_data: { display_name: 'QA' },
  });
  step(root + 4, root + 3, {
    task_name: 'lintian',
    status: 'blocked',
    workflow_data: { display_name: 'Lintian for amd64+all+source' },
  });
  step(root + 5, root, {
    task_type: 'Server',
    task_name: 'packageupload',
    status: 'blocked',
    task_data: { target: 'ftp://anonymous@127.0.0.1:18021/incoming/', input: { upload: 410 } },
    workflow_data: { display_name: 'Upload to ftp://127.0.0.1:18021/incoming/' },
  });
}

/** Opens the workflow's page from the list of workflows. */
async function openWorkflow(page: Page, id: number): Promise<void> {
  await goToTab(page, 'Work requests', 'Workflows');
  const node = page.getByTestId(`workflow-${String(id)}`);
  await node.waitFor();
  await node.getByRole('button', { name: `#${String(id)}`, exact: true }).click();
  await page.getByTestId('work-request-page').waitFor();
}

describe('watching a real pipeline, on a fake server', () => {
  let work: FakeWorkRequests;

  const session = fakeAppSession({
    seed: (fake) => {
      work = serveWorkRequests(fake);
      serveFixture(fake, 405, () => 'log\n');
      serveFixture(fake, 406, () => HELLO_LOG);
      serveFixture(fake, 407, () => 'not a real deb');
      serveFixture(fake, 408, () => 'not a real deb');
      serveFixture(fake, 410, () => 'x');
      serveFixture(fake, 415, () => '{}');
      serveFixture(fake, 416, () => '{}');
      serveFixture(fake, 424, () => BROKEN_LOG);
    },
    close: () => work.close(),
  });

  it('shows the steps as the server makes them, then sums up their results', async () => {
    const ROOT = 500;
    pipelineRoot(work, ROOT);
    const { page, errors } = await openPage(session.browser, session.app);
    await openWorkflow(page, ROOT);
    const status = page.getByTestId('wr-page-status');
    await expect(status.textContent()).resolves.toBe('Pending');
    await page.getByTestId('no-steps').waitFor();

    // The server starts the workflow and adds its steps; no completion is sent.
    const at = Date.now();
    work.update(ROOT, running());
    populate(work, ROOT);
    const build = page.getByTestId(`step-${String(ROOT + 2)}`);
    await build.waitFor({ timeout: 15_000 });
    const seenAfter = Date.now() - at;
    expect(seenAfter).toBeLessThan(10_000);
    await expect(build.textContent()).resolves.toContain('Running');
    await expect(page.getByTestId(`step-${String(ROOT + 5)}`).textContent()).resolves.toContain(
      'Blocked',
    );
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Running');
    // The summary sums up the same: nothing made yet, and where the upload will go.
    const summary = page.getByTestId('workflow-summary');
    await expect(summary.getByLabel('Its tasks').textContent()).resolves.toBe(
      '3 tasks 1 running 2 blocked',
    );
    await expect(summary.getByTestId('upload-summary').textContent()).resolves.toBe(
      'Will upload to ftp://anonymous@127.0.0.1:18021/incoming/',
    );

    // The build succeeds, lintian runs and succeeds, the upload goes: the server sends
    // their completions, and the root's.
    work.update(ROOT + 2, { ...done('success'), artifacts: [405, 406, 407, 408, 410] });
    work.update(ROOT + 1, done('success'));
    work.complete(ROOT + 2);
    work.update(ROOT + 4, { ...done('success'), artifacts: [415, 416] });
    work.update(ROOT + 3, done('success'));
    work.complete(ROOT + 4);
    work.update(ROOT + 5, { ...done('success'), dynamic_task_data: { input_upload_id: 410 } });
    work.complete(ROOT + 5);
    work.update(ROOT, done('success'));
    work.complete(ROOT);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Success');

    await summary.getByTestId('results-binary-packages').waitFor({ timeout: 15_000 });
    await expect(summary.getByTestId('binary-package-row').count()).resolves.toBe(2);
    await expect(summary.getByLabel('Its tasks').textContent()).resolves.toBe(
      '3 tasks 3 succeeded',
    );
    const buildLog = summary.getByTestId('results-build-log');
    await expect(buildLog.textContent()).resolves.toContain('ddt-hello 1.0');
    await expect(buildLog.getByRole('button', { name: 'Open log' }).count()).resolves.toBe(1);
    await expect(
      summary
        .getByTestId(`step-results-${String(ROOT + 4)}`)
        .getByTestId('lintian-warning')
        .count(),
    ).resolves.toBe(2);
    await expect
      .poll(() => summary.getByTestId('upload-summary').textContent(), { timeout: 15_000 })
      .toBe('Uploaded 4 files to ftp://anonymous@127.0.0.1:18021/incoming/');
    await expect(page.getByTestId('work-request-page').textContent()).resolves.not.toContain(
      'None created',
    );
    await screenshotsInBothThemes(page, 'workflow-live-summary');
    // Further down: lintian's counts and the upload.
    await summary.getByTestId(`upload-${String(ROOT + 5)}`).scrollIntoViewIfNeeded();
    await screenshotsInBothThemes(page, 'workflow-live-summary-upload');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('notifies once when a watched pipeline ends aborted after its build failed, with its log line', async () => {
    const ROOT = 600;
    pipelineRoot(work, ROOT);
    work.update(ROOT, running());
    populate(work, ROOT);
    const { page, errors } = await openPage(session.browser, session.app);
    await openWorkflow(page, ROOT);
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await page.getByRole('button', { name: 'Unwatch', exact: true }).waitFor();

    // The build fails: the server sends its completion, and its sub-workflow's; the QA
    // steps, the upload and the root are aborted, which it sends nothing for.
    work.update(ROOT + 2, { ...done('failure'), artifacts: [424] });
    work.update(ROOT + 1, done('failure'));
    for (const id of [ROOT + 4, ROOT + 3, ROOT + 5, ROOT]) work.update(id, aborted());
    work.complete(ROOT + 2);
    work.complete(ROOT + 1);

    await expect
      .poll(() => page.getByTestId('wr-page-status').textContent(), { timeout: 20_000 })
      .toBe('Aborted');
    // The page says which step broke and why.
    await expect
      .poll(() => page.locator('.wr-page-reason').textContent(), { timeout: 20_000 })
      .toMatch(
        /^Aborted after step #602 failed: sbuild ddt-broken 1\.0 amd64 — build — make: \*\*\* \[debian\/rules:4: build-arch\] Error 1$/,
      );

    // The tree has the failed build open; the summary shows its log, where it broke.
    await page
      .getByTestId('workflow-summary')
      .getByTestId('build-log-error')
      .waitFor({ timeout: 20_000 });
    await screenshotsInBothThemes(page, 'workflow-live-aborted-page');

    await goTo(page, 'Work requests');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const told = page.getByTestId(`notification-${String(ROOT)}`);
    await told.waitFor({ timeout: 30_000 });
    const line =
      BROKEN_LOG.split('\n').indexOf('make: *** [debian/rules:4: build-arch] Error 1') + 1;
    await expect(told.textContent()).resolves.toContain('Aborted: workflow debian_pipeline #600');
    await expect(told.textContent()).resolves.toContain(
      `sbuild ddt-broken 1.0 amd64 (#602) — build: make: *** [debian/rules:4: build-arch] Error 1 (log line ${String(line)})`,
    );
    // Once: nothing more comes from the reads that follow.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await expect(page.getByTestId(`notification-${String(ROOT)}`).count()).resolves.toBe(1);
    // The summary counts it as ended: nothing runs any more.
    await expect(page.getByTestId('aggregate-state').textContent()).resolves.not.toContain(
      'running',
    );
    await expect(page.getByTestId('aggregate-state').textContent()).resolves.toContain('1 aborted');
    await screenshotsInBothThemes(page, 'workflow-live-aborted-notification');

    await told
      .getByRole('button', {
        name: `Open the log of work request ${String(ROOT + 2)} at line ${String(line)}`,
      })
      .click();
    // The row is placed at once and its text follows from main ("…" until then).
    const marked = page.locator('.log-row.marked');
    await marked.waitFor({ timeout: 30_000 });
    await expect
      .poll(() => marked.textContent(), { timeout: 30_000 })
      .toMatch(/make: \*\*\* \[debian\/rules:4: build-arch\] Error 1/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
