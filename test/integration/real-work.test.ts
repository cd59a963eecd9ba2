/**
 * The Debian developer's path on the current sandbox, set up like debusine.debian.net,
 * through the app's own service (the bridge the renderer uses), for a package whose build
 * fails: its source-only .changes is dropped, as `dput` would send it, becomes the upload
 * and its source package, and starts the workflow the sandbox's dput-ng profile names for
 * Distribution unstable, `upload-to-unstable` in `developers`. The build fails: the
 * workflow ends aborted (the server sends no message for that), the app notifies it once,
 * naming the failed step and its log line, and nothing of it reaches the upload queue.
 *
 * A good package goes the whole way (QA, the signature, the queue) through the window in
 * test/e2e/dput-journey.test.ts: one good pipeline per run is enough for the sandbox's one
 * build worker.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactResponse, WorkRequestResponse } from '../../src/shared/contract';
import { missingDebianTools } from '../support/debian-fixtures';
import { realPackages, type SourcePackage } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

const current = hasServer('current') ? testServer('current') : null;
const realWork = current?.realWork ?? null;
const developers = current?.developers ?? null;
const canRun = realWork !== null && developers !== null && missingDebianTools() === undefined;

/** The pipeline of a small package takes about 5 minutes on the sandbox's worker. */
const PIPELINE_MS = 25 * 60_000;

describe.runIf(canRun)("the Debian developer's path on the current server", () => {
  const server = testServer('current');
  const queue = developers?.uploadQueue.dir ?? '';
  let s: ServiceBridge;
  let downloads: string;
  let nextDestination = '';
  let failing: WorkRequestResponse | undefined;

  function idOf(root: WorkRequestResponse | undefined): number {
    if (!root) throw new Error('the workflow was not started');
    return root.id;
  }

  /**
   * Drops the package's source-only .changes with its files, checks what the app proposes
   * (dput's workflow for the Distribution), and uploads it, starting that workflow.
   */
  async function dput(pkg: SourcePackage): Promise<WorkRequestResponse> {
    const staged = [];
    for (const path of [pkg.changes, pkg.dsc, pkg.tarball])
      staged.push(await s.made.files.add(path));
    const [draft] = await s.api.localArtifacts.detect({ fileIds: staged.map((f) => f.id) });
    expect(draft).toMatchObject({ category: 'debian:upload', ready: true });
    expect(draft?.parts.map((p) => p.category)).toEqual(['debian:upload', 'debian:source-package']);
    expect(draft?.workflow).toMatchObject({
      profile: developers?.dputHost,
      distribution: 'unstable',
      template: developers?.templates.unstable,
      workspace: developers?.workspace,
      problem: null,
    });
    const job = await s.api.uploads.start({
      draftId: draft?.draftId ?? '',
      workspace: null,
      startWorkflow: true,
    });
    const done = await s.waitEvent('upload.finished', (j) => j.jobId === job.jobId, 120_000);
    expect(done.state, done.error?.message).toBe('completed');
    expect(done.workspace).toBe(developers?.workspace);
    const id = done.workflow?.workRequestId ?? null;
    if (id === null) throw new Error('the upload started no workflow');
    return await s.api.workRequests.get({ id });
  }

  /** What the upload queue holds of this package. */
  function inQueue(pkg: SourcePackage): string[] {
    if (!existsSync(queue)) return [];
    return readdirSync(queue).filter((name) => name.startsWith(`${pkg.name}_`));
  }

  /** Waits for the completion of this work request to come through the websocket. */
  async function completion(id: number, ms: number): Promise<WorkRequestResponse> {
    await s.waitEvent('workRequest.completed', (e) => e.workRequestId === id, ms);
    return await s.api.workRequests.get({ id });
  }

  /** The steps of a workflow: every work request whose workflow root it is. */
  async function stepsOf(rootId: number): Promise<WorkRequestResponse[]> {
    const steps: WorkRequestResponse[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await s.api.workRequests.page(cursor === null ? {} : { cursor });
      steps.push(...page.items.filter((wr) => wr.workflow_root === rootId && wr.id !== rootId));
      cursor = page.nextCursor;
      const last = page.items.at(-1);
      if (!cursor || !last || last.id < rootId) return steps.sort((a, b) => a.id - b.id);
    }
  }

  async function artifactsOf(wr: WorkRequestResponse): Promise<ArtifactResponse[]> {
    return await Promise.all(wr.artifacts.map((id) => s.api.artifacts.get({ id })));
  }

  /** Downloads one file through the app (main's download, checked against its SHA-256). */
  async function download(artifactId: number, path: string): Promise<string> {
    nextDestination = join(downloads, `${String(artifactId)}-${path}`);
    const saved = await s.api.downloads.save({ what: 'file', server: 'sandbox', artifactId, path });
    if (saved?.savedBy !== 'app') throw new Error('main did not save the file');
    const [job] = saved.jobs;
    if (job === undefined) throw new Error('main started no download');
    const done = await s.waitEvent('download.finished', (j) => j.jobId === job.jobId, 120_000);
    expect(done.error).toBeNull();
    expect(done.state).toBe('completed');
    return nextDestination;
  }

  function onlyStep(steps: WorkRequestResponse[], task: string): WorkRequestResponse {
    const found = steps.filter((wr) => wr.task_type === 'Worker' && wr.task_name === task);
    expect(found.map((wr) => wr.task_name)).toEqual([task]);
    const [step] = found;
    if (!step) throw new Error(`no ${task} step`);
    return step;
  }

  beforeAll(async () => {
    downloads = await mkdtemp(join(tmpdir(), 'real-work-downloads-'));
    const data = await mkdtemp(join(tmpdir(), 'real-work-env-'));
    s = await serviceBridge(
      {
        env: {
          DEBUSINE_DESKTOP_CLI_CONFIG: join(data, 'none.ini'),
          DEBUSINE_SANDBOX_HOME: join(data, 'none'),
          DEBUSINE_DESKTOP_DPUT_DIRS: developers?.dputProfiles ?? '',
        },
        host: {
          transport: 'electron',
          platform: 'linux',
          // Stands in for main's save dialog: the file goes where the test looks for it.
          chooseDestination: () => Promise.resolve(nextDestination),
        },
      },
      ['connection.state', 'upload.finished', 'download.finished', 'workRequest.completed'],
    );
    await s.signIn(server);

    const broken = realPackages().failing;
    // The queue keeps what earlier runs uploaded, under the same names: only this run's count.
    for (const name of inQueue(broken)) rmSync(join(queue, name), { force: true });
    failing = await dput(broken);
  }, 300_000);

  afterAll(async () => {
    // Nothing of ours stays queued for the next tests, whatever happened here.
    for (const root of [failing]) {
      if (!root) continue;
      const now = await s.api.workRequests.get({ id: idOf(root) });
      if (now.status !== 'completed' && now.status !== 'aborted') {
        await s.api.workRequests.abort({ id: idOf(root) });
      }
    }
    await s.close();
    await rm(downloads, { recursive: true, force: true });
  });

  it(
    'fails the broken package in its build: the workflow ends aborted, notified once with the log line, and nothing is uploaded',
    { timeout: PIPELINE_MS },
    async () => {
      const root = await completion(idOf(failing), PIPELINE_MS);
      expect(root.status).toBe('aborted');
      const steps = await stepsOf(idOf(failing));
      const sbuild = onlyStep(steps, 'sbuild');
      expect(sbuild).toMatchObject({ status: 'completed', result: 'failure' });
      // The QA and the upload never ran.
      for (const step of steps.filter((wr) => wr.id !== sbuild.id && wr.task_type !== 'Workflow')) {
        expect(step.status, `${step.task_name} #${String(step.id)}`).toBe('aborted');
      }
      // One notification for the root's end, naming the failed step and its log line.
      const ends = s.made.notifier.shown.filter(
        (n) => n.notification.workRequestId === idOf(failing),
      );
      expect(ends.map((n) => n.notification.title)).toEqual([
        `Aborted: workflow debian_pipeline #${String(idOf(failing))}`,
      ]);
      const body = ends[0]?.notification.body ?? '';
      expect(body).toContain(`sbuild ${realPackages().failing.name}`);
      expect(body).toMatch(/\(log line \d+\)/);
      expect(inQueue(realPackages().failing)).toEqual([]);

      const artifacts = await artifactsOf(sbuild);
      const categories = artifacts.map((a) => a.category);
      expect(categories).toContain('debian:package-build-log');
      expect(categories).not.toContain('debian:binary-package');
      const log = artifacts.find((a) => a.category === 'debian:package-build-log');
      const name = Object.keys(log?.files ?? {}).find((f) => f.endsWith('.build')) ?? '';
      expect(name).toMatch(/^ddt-broken_1\.0_amd64-.*\.build$/);
      const text = await readFile(await download(log?.id ?? 0, name), 'utf8');
      expect(text).toContain('ddt-broken: this build fails on purpose');
      expect(text).toMatch(/^Fail-Stage: build$/m);
      expect(text).toMatch(/^make: \*\*\* \[debian\/rules:\d+: build-arch\] Error 1$/m);
      // The line the notification names is the line that says so.
      const line = Number(/\(log line (\d+)\)/.exec(body)?.[1] ?? 0);
      expect(text.split('\n')[line - 1]).toMatch(/Error|exit 1|fails on purpose/);
    },
  );
});
