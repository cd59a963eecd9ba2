/**
 * The Debian developer's path through the window, on the current sandbox set up like
 * debusine.debian.net, from the drop to the archive's queue: a source-only .changes dropped
 * on the app shows what dput makes of it (the upload and its source package) and the
 * workflow the sandbox's dput-ng profile names for its Distribution; one click uploads both
 * and starts `upload-to-unstable` in `developers`; the app opens the workflow, whose tree
 * shows the steps within 5 s of the server making them. The workflow builds and runs QA
 * (sbuild, lintian, autopkgtest, piuparts, blhc), then waits for the uploader's signature:
 * the app asks for it, "Sign and upload" signs with the uploader's key (the web host's main
 * runs real gpg and debsign in a GnuPG home of the test's own) and the queue's incoming/
 * receives the .changes, .dsc and tarball, with signatures gpgv accepts.
 *
 * The same workflow's results are then read in the app (binary packages, a .deb through
 * the web host's link, the build log in the viewer, lintian's counts, autopkgtest's tests)
 * and checked on the server. One run of the pipeline serves all of it: the sandbox has one
 * worker for real builds, and each run costs it minutes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import type { ArtifactResponse, WorkRequestResponse } from '../../src/shared/models';
import { openPage } from '../support/app';
import { have, missingDebianTools } from '../support/debian-fixtures';
import { dropFiles } from '../support/drop-files';
import {
  appSession,
  goTo,
  goToTab,
  screenshotAndCheckA11y,
  screenshotsInBothThemes,
} from '../support/e2e';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import { archiveCorpus } from '../support/archive-corpus';
import { realPackages } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';

const server = hasServer('current') ? testServer('current') : undefined;
const developers = server?.developers ?? null;
const SIGNING_TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign', 'dpkg-deb'];
const canRun =
  developers !== null && missingDebianTools() === undefined && SIGNING_TOOLS.every(have);
/** The pipeline of a small package takes about 5 minutes on the sandbox's worker. */
const PIPELINE_MS = 25 * 60_000;

/** The id the work request's page shows in its head ("debian_pipeline #123 Workflow"). */
async function pageId(page: Page): Promise<number> {
  const head = page.locator('.wr-page-head');
  await head.waitFor({ timeout: 120_000 });
  const text = (await head.textContent()) ?? '';
  return Number(/#(\d+)/.exec(text)?.[1] ?? NaN);
}

/**
 * The workflow's page, from the list of workflows. Other tests start workflows of their own
 * on the same server while this one builds (repositories, publications), so it may have gone
 * past the first page: more are loaded until it is there, as a user would.
 */
async function openWorkflow(page: Page, workflowId: number): Promise<void> {
  await goTo(page, 'Work requests');
  await page.getByRole('tab', { name: 'Workflows' }).click();
  const row = page.getByTestId(`workflow-${String(workflowId)}`);
  await page.getByTestId('workflow-list').waitFor({ timeout: 60_000 });
  await expect
    .poll(
      async () => {
        if ((await row.count()) > 0) return true;
        const more = page.getByRole('button', { name: 'Load more' });
        if ((await more.count()) > 0 && (await more.isEnabled())) await more.click();
        return false;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(true);
  await row.locator('.wr-id').first().click();
}

/** From the list of workflows: the workflow's tree, every branch open, then the step. */
async function openStep(page: Page, workflowId: number, task: RegExp): Promise<void> {
  await openWorkflow(page, workflowId);
  // Branches load their children when opened, and those may have branches of their own:
  // open whatever is closed until the step is there.
  const node = page.locator('.wr-node').filter({ hasText: task }).first();
  await expect
    .poll(
      async () => {
        if ((await node.count()) > 0) return true;
        const closed = page.getByRole('button', { name: /^Expand / });
        if ((await closed.count()) > 0) await closed.first().click();
        return false;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(true);
  await node.locator('.wr-id').click();
  await page.getByTestId('work-request-page').waitFor();
}

describe.runIf(canRun)('a .changes dropped on the window, as dput would upload it', () => {
  const client = server
    ? new DebusineClient({
        apiUrl: server.apiUrl,
        token: server.users.owner.token,
        scope: server.scope,
      })
    : undefined;
  const queue = developers?.uploadQueue.dir ?? '';
  const pkg = realPackages().good;
  let gnupg: TestGnupg | undefined;
  let key = '';
  let workflowId = 0;
  /** The workflow of the archive's package (the last test), aborted once it has built. */
  let archiveWorkflowId = 0;

  function api(): DebusineClient {
    if (!client) throw new Error('no current server');
    return client;
  }

  /** What the upload queue holds of this package. */
  function inQueue(): string[] {
    if (!existsSync(queue)) return [];
    return readdirSync(queue).filter((name) => name.startsWith(`${pkg.name}_`));
  }

  /** The steps of the workflow: every work request whose root it is. */
  async function steps(root = workflowId): Promise<WorkRequestResponse[]> {
    const found: WorkRequestResponse[] = [];
    for await (const wr of api().workRequestIter()) {
      if (wr.id < root) break;
      if (wr.workflow_root === root && wr.id !== root) found.push(wr);
    }
    return found.sort((a, b) => a.id - b.id);
  }

  async function onlyStep(task: string): Promise<WorkRequestResponse> {
    const found = (await steps()).filter(
      (wr) => wr.task_type === 'Worker' && wr.task_name === task,
    );
    expect(found.map((wr) => wr.task_name)).toEqual([task]);
    const [step] = found;
    if (!step) throw new Error(`no ${task} step`);
    return step;
  }

  async function artifactsOf(wr: WorkRequestResponse): Promise<ArtifactResponse[]> {
    return await Promise.all(wr.artifacts.map((id) => api().artifactGet(id)));
  }

  /** When the server first lists a step of the workflow (read every 250 ms). */
  async function serverHasSteps(): Promise<number> {
    for (let i = 0; i < 480; i++) {
      if ((await steps()).length > 0) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the server made no step of workflow #${String(workflowId)} in 2 minutes`);
  }

  const session = appSession('current', {
    seed: async () => {
      gnupg = await testGnupg();
      // The uploader's key: the .changes' Changed-By, as debsign picks it.
      key = await gnupg.addKey('Debusine Desktop Tests <tests@example.org>');
      // The queue keeps what earlier runs uploaded, under the same names.
      for (const name of inQueue()) rmSync(join(queue, name), { force: true });
    },
    env: () => {
      if (!gnupg) throw new Error('no GnuPG home');
      return {
        DEBUSINE_DESKTOP_DPUT_DIRS: developers?.dputProfiles ?? '',
        GNUPGHOME: gnupg.env.GNUPGHOME ?? '',
        HOME: gnupg.home,
      };
    },
    cleanUp: async () => {
      // Nothing of this run stays queued for the next tests, whatever happened here.
      for (const id of [workflowId, archiveWorkflowId]) {
        if (id === 0) continue;
        const root = await api()
          .workRequestGet(id)
          .catch(() => undefined);
        if (root && root.status !== 'completed' && root.status !== 'aborted') {
          await api()
            .workRequestAbort(id)
            .catch(() => undefined);
        }
      }
    },
    close: async () => {
      await client?.close();
      await gnupg?.close();
    },
  });

  it('proposes upload-to-unstable, uploads and starts it in one click, and shows its steps as the server makes them', async () => {
    const { page, errors } = await openPage(session.browser, session.app, 'light');
    await goTo(page, 'Upload');
    await dropFiles(page, [pkg.changes, pkg.dsc, pkg.tarball]);
    const draft = page.getByTestId('draft');
    await draft.getByTestId('draft-ready').waitFor({ timeout: 60_000 });
    const plan = draft.getByTestId('dput-plan');
    await expect(plan.textContent()).resolves.toContain('debian:source-package');
    const proposal = draft.getByTestId('dput-workflow');
    const text = (await proposal.textContent()) ?? '';
    expect(text).toContain(developers?.templates.unstable);
    expect(text).toContain(developers?.workspace);
    expect(text).toContain('unstable');
    expect(text).toContain(developers?.dputHost);
    await screenshotAndCheckA11y(page, 'upload-dput-proposal-light');

    const start = draft.getByTestId('upload-start');
    await expect(start.textContent()).resolves.toContain(
      `Upload and start ${developers?.templates.unstable ?? ''}`,
    );
    await start.click();
    // The queue opens the workflow once the upload's job has started it.
    workflowId = await pageId(page);
    expect(workflowId).toBeGreaterThan(0);
    // The server makes the steps in the background and commits them together, seconds
    // after Start (2 to 12 s on this machine, with its load): the app's share is the time
    // from the server having them to the tree showing them.
    const onServer = serverHasSteps();
    const firstStep = page.locator('[data-testid^="step-"]').first();
    await firstStep.waitFor({ timeout: 120_000 });
    const shownAt = Date.now();
    const serverAt = await onServer;
    expect(shownAt - serverAt).toBeLessThanOrEqual(5_000);
    await expect(page.locator('.wr-page-head').textContent()).resolves.toContain('debian_pipeline');
    await screenshotAndCheckA11y(page, 'workflow-started-from-changes-light');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it(
    "asks for the uploader's signature once QA has passed; Sign and upload sends the signed upload to the queue",
    { timeout: PIPELINE_MS + 5 * 60_000 },
    async () => {
      if (!gnupg) throw new Error('no GnuPG home');
      const { page, errors } = await openPage(session.browser, session.app, 'light');
      // The app's "Needs me" lists the workflow's signing step once the server starts it.
      let signId = 0;
      const deadline = Date.now() + PIPELINE_MS;
      while (signId === 0) {
        const waiting = (await steps()).find(
          (wr) => wr.task_name === 'externaldebsign' && wr.status === 'running',
        );
        if (waiting) signId = waiting.id;
        else if (Date.now() > deadline) throw new Error('the workflow never asked to be signed');
        else await new Promise((resolve) => setTimeout(resolve, 10_000));
      }
      // The workflow's page is seen while it waits, as a developer would: its tree is then
      // in this window's cache, to be read again, not shown as it was, once signed.
      await openWorkflow(page, workflowId);
      await page
        .getByTestId(`step-${String(signId)}`)
        .or(page.getByTestId('workflow-summary'))
        .first()
        .waitFor();
      const button = page.getByRole('button', {
        name: `Sign and upload work request ${String(signId)}`,
      });
      await expect
        .poll(
          async () => {
            await goToTab(page, 'Work requests', /Needs me/);
            return await button.count();
          },
          { timeout: 120_000, interval: 3_000 },
        )
        .toBe(1);
      await button.click();
      const waiting = page.getByTestId('waiting-step');
      await waiting.waitFor();
      await waiting.getByRole('button', { name: 'Sign and upload' }).click();
      await waiting
        .getByRole('status')
        .filter({ hasText: 'uploaded and the step completed' })
        .waitFor({ timeout: 120_000 });

      // The workflow then uploads to the queue and ends.
      await expect
        .poll(async () => (await api().workRequestGet(workflowId)).status, {
          timeout: 10 * 60_000,
          interval: 5_000,
        })
        .toBe('completed');
      expect(await api().workRequestGet(workflowId)).toMatchObject({ result: 'success' });
      expect(inQueue().sort()).toEqual(
        [basename(pkg.changes), basename(pkg.dsc), basename(pkg.tarball)].sort(),
      );
      for (const name of [basename(pkg.changes), basename(pkg.dsc)]) {
        expect(await gnupg.signer(join(queue, name)), name).toBe(key);
      }
      // The workflow's own page says it ended well.
      await openWorkflow(page, workflowId);
      await expect
        .poll(() => page.getByTestId('wr-page-status').textContent(), { timeout: 60_000 })
        .toContain('Success');
      // Its summary says where the upload went, and how many files.
      await expect
        .poll(() => page.getByTestId('upload-summary').first().textContent(), {
          timeout: 60_000,
        })
        .toBe(`Uploaded 3 files to ${developers?.uploadQueue.url ?? ''}`);
      // Without a reload, every step shows completed: the tasks' counts say they all
      // succeeded, and no node of the tree says otherwise.
      const counts = page.getByTestId('workflow-summary').getByLabel('Its tasks');
      await expect
        .poll(async () => /^(\d+) tasks? \1 succeeded$/.test((await counts.textContent()) ?? ''), {
          timeout: 60_000,
        })
        .toBe(true);
      await expect
        .poll(
          async () =>
            (await page.locator('[data-testid^="step-"] .wr-node-status').allTextContents()).filter(
              (status) => status !== 'Success',
            ),
          { timeout: 60_000 },
        )
        .toEqual([]);
      await screenshotAndCheckA11y(page, 'workflow-signed-and-uploaded-light');
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it('has run every step of debian_pipeline, each to success', async () => {
    const all = await steps();
    const summary = all.map(
      (wr) => `${wr.task_type}/${wr.task_name} #${String(wr.id)}: ${wr.status}/${wr.result}`,
    );
    const workers = all.filter((wr) => wr.task_type === 'Worker').map((wr) => wr.task_name);
    expect(new Set(workers)).toEqual(
      new Set(['sbuild', 'lintian', 'autopkgtest', 'piuparts', 'blhc']),
    );
    for (const step of all) {
      expect(step.status, summary.join('\n')).toBe('completed');
      expect(['success', 'skipped'], summary.join('\n')).toContain(step.result);
    }
  });

  it('shows the build in the app: binary packages, a sound .deb, the build log, lintian and autopkgtest', async () => {
    const { page, errors } = await openPage(session.browser, session.app);
    await openStep(page, workflowId, /sbuild\s*Worker/);
    const packages = page.getByTestId('results-binary-packages');
    await packages.waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('binary-package-row').count()).resolves.toBeGreaterThan(0);
    await screenshotsInBothThemes(page, 'build-results');

    // A .deb through the web host's one-time link, checked by dpkg-deb: this run's program.
    const debName = `${pkg.name}_${pkg.version}_amd64.deb`;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download ${debName}` }).click(),
    ]);
    const deb = join(mkdtempSync(join(tmpdir(), 'ddt-deb-')), debName);
    await download.saveAs(deb);
    const field = (name: string) =>
      execFileSync('dpkg-deb', ['--field', deb, name], { encoding: 'utf8' }).trim();
    expect([field('Package'), field('Version'), field('Architecture')]).toEqual([
      pkg.name,
      pkg.version,
      'amd64',
    ]);
    const contents = execFileSync('dpkg-deb', ['--contents', deb], { encoding: 'utf8' });
    expect(contents).toMatch(new RegExp(`\\./usr/bin/${pkg.name}$`, 'm'));
    const program = execFileSync('dpkg-deb', ['--fsys-tarfile', deb], { maxBuffer: 64 << 20 });
    expect(program.includes(Buffer.from(pkg.greeting))).toBe(true);

    // The build log opens in the viewer, and is searched there.
    await page
      .getByTestId('results-build-log')
      .getByRole('button', { name: /^Open log/ })
      .click();
    await page.getByTestId('work-request-page').waitFor({ state: 'detached' });
    await page
      .getByTestId('log-progress')
      .filter({ hasText: /lines, / })
      .waitFor();
    const search = page.getByRole('textbox', { name: 'Search the log' });
    await search.fill('Status: successful');
    await search.press('Enter');
    await page.getByText(/^1 of \d+$/).waitFor();
    await page
      .getByRole('region', { name: 'Log lines' })
      .getByText('Status: successful', { exact: true })
      .waitFor();
    await screenshotsInBothThemes(page, 'build-results-log');

    // Lintian's counts, on the lintian step's page.
    await openStep(page, workflowId, /lintian\s*Worker/);
    await page.getByTestId('results-lintian').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('lintian-classification').first().textContent()).resolves.toMatch(
      /^\d+ classification$/,
    );
    // Every lintian artifact's tags are read (analysis.json) before the page is looked at.
    await expect
      .poll(() => page.getByText("Reading lintian's tags…").count(), { timeout: 60_000 })
      .toBe(0);
    await expect(
      page.getByRole('table', { name: 'Lintian tags' }).count(),
    ).resolves.toBeGreaterThan(0);
    await screenshotsInBothThemes(page, 'build-results-lintian');

    // Autopkgtest: each test's result, on its step's page.
    await openStep(page, workflowId, /autopkgtest\s*Worker/);
    const greets = page.getByTestId('autopkgtest-row').filter({ hasText: 'greets' });
    await greets.waitFor({ timeout: 60_000 });
    await expect(greets.textContent()).resolves.toMatch(/pass/i);
    await screenshotsInBothThemes(page, 'build-results-autopkgtest');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('leaves on the server what sbuild and lintian give: build log, packages, upload, debug logs, analysis', async () => {
    const sbuild = await onlyStep('sbuild');
    const byCategory = new Map((await artifactsOf(sbuild)).map((a) => [a.category, a]));
    for (const category of [
      'debian:package-build-log',
      'debian:binary-package',
      'debian:upload',
      'debusine:work-request-debug-logs',
    ]) {
      expect([...byCategory.keys()]).toContain(category);
    }
    expect(Object.keys(byCategory.get('debian:upload')?.files ?? {})).toEqual(
      expect.arrayContaining([`${pkg.name}_${pkg.version}_amd64.changes`]),
    );
    expect(Object.keys(byCategory.get('debusine:work-request-debug-logs')?.files ?? {})).toContain(
      'cmd-output.log',
    );
    const log = byCategory.get('debian:package-build-log');
    const name = Object.keys(log?.files ?? {}).find((f) => f.endsWith('.build')) ?? '';
    const saved = join(mkdtempSync(join(tmpdir(), 'ddt-log-')), name);
    await downloadArtifactFile(api(), log?.id ?? 0, name, saved);
    expect(execFileSync('grep', ['-c', '^Status: successful$', saved], { encoding: 'utf8' })).toBe(
      '1\n',
    );

    const lintian = await onlyStep('lintian');
    const analyses = (await artifactsOf(lintian)).filter((a) => a.category === 'debian:lintian');
    expect(analyses.length).toBeGreaterThan(0);
    for (const artifact of analyses) {
      expect(Object.keys(artifact.files)).toEqual(
        expect.arrayContaining(['analysis.json', 'lintian.txt']),
      );
      const summary = (
        artifact.data as { summary?: { tags_count_by_severity?: Record<string, number> } }
      ).summary;
      const counts = summary?.tags_count_by_severity ?? {};
      expect(Object.keys(counts)).toEqual(expect.arrayContaining(['error', 'warning']));
      expect(counts.error, JSON.stringify(artifact.data)).toBe(0);
    }
  });

  it(
    "uploads a real 3.0 (quilt) package's new revision, its folder chosen, as dput-ng does: the workflow builds it",
    { timeout: PIPELINE_MS },
    async () => {
      // hello 2.10 from the archive at a new Debian revision, built with dpkg-buildpackage -S
      // -d: its .changes lists the .dsc, the debian tarball and the .buildinfo, not the orig
      // tarball or its .asc, which the .dsc lists. The build folder also holds the archive's
      // own revision, as a developer's does.
      const [upload] = archiveCorpus(['hello/source-new-revision']);
      if (!upload) throw new Error('no hello/source-new-revision in the corpus');
      const { page, errors } = await openPage(session.browser, session.app, 'light');
      await goTo(page, 'Upload');
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Choose folder…' }).click(),
      ]);
      await chooser.setFiles(upload.dir);
      const draft = page.getByTestId('draft');
      await draft.getByTestId('draft-ready').waitFor({ timeout: 60_000 });
      await expect(draft.getByTestId('dput-plan').textContent()).resolves.toMatch(
        /Makes 2 artifacts/,
      );
      // The orig and its signature are the source package's, not "not taken".
      for (const name of ['hello_2.10.orig.tar.gz', 'hello_2.10.orig.tar.gz.asc']) {
        const row = draft
          .getByTestId('draft-file')
          .filter({ has: page.getByText(name, { exact: true }) });
        await expect(row.count()).resolves.toBe(1);
        await expect(row.textContent()).resolves.toContain('OK');
      }
      await screenshotAndCheckA11y(page, 'upload-new-revision-folder-light');
      await draft.getByTestId('upload-start').click();
      archiveWorkflowId = await pageId(page);
      expect(archiveWorkflowId).toBeGreaterThan(workflowId);

      // The source package on the server holds every file the .dsc lists.
      const root = await api().workRequestGet(archiveWorkflowId);
      const sourceId = (root.task_data as { source_artifact?: unknown }).source_artifact;
      expect(typeof sourceId).toBe('number');
      const relations = await api().relationList({ artifactId: Number(sourceId) });
      const targets = await Promise.all(relations.map((r) => api().artifactGet(r.target)));
      const source = targets.find((a) => a.category === 'debian:source-package');
      expect(Object.keys(source?.files ?? {}).sort()).toEqual([
        'hello_2.10-4.debian.tar.xz',
        'hello_2.10-4.dsc',
        'hello_2.10.orig.tar.gz',
        'hello_2.10.orig.tar.gz.asc',
      ]);
      expect(source?.files_to_upload).toEqual([]);

      // sbuild unpacks that source package: it builds only when the orig is there.
      const build = async () => {
        const step = (await steps(archiveWorkflowId)).find(
          (wr) => wr.task_type === 'Worker' && wr.task_name === 'sbuild',
        );
        return `${step?.status ?? ''}/${step?.result ?? ''}`;
      };
      await expect
        .poll(build, {
          timeout: PIPELINE_MS - 5 * 60_000,
          interval: 10_000,
        })
        .toBe('completed/success');
      expect(errors).toEqual([]);
      await page.context().close();
      // QA and the signature are the first journey's: this workflow stops here.
      await api().workRequestAbort(archiveWorkflowId);
    },
  );
});
