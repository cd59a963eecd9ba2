/**
 * The Debian developer's path on the current sandbox, set up like debusine.debian.net,
 * through the app's own service (the bridge the renderer uses): two source-only .changes
 * are dropped, as `dput` would send them. Each becomes the upload and its source package,
 * and starts the workflow the sandbox's dput-ng profile names for Distribution unstable,
 * `upload-to-unstable` in `developers`: debian_pipeline (sbuild, lintian, autopkgtest,
 * piuparts, blhc), then a wait for the uploader's signature, then an upload to the
 * sandbox's FTP queue.
 *
 * The good package goes the whole way: the app notifies that the workflow waits for the
 * user's signature, signs with a key the test makes (real gpg and debsign, as "Sign and
 * upload" does), and the queue's incoming/ receives the .changes, .dsc and tarball with
 * signatures gpgv accepts. The other one fails its build: its workflow ends aborted (the
 * server sends no message for that), the app notifies it once, naming the failed step and
 * its log line, and nothing of it reaches the queue.
 *
 * The server's one real worker runs them one after the other; both are queued at the start
 * so that the worker is never idle between them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactResponse, WorkRequestResponse } from '../../src/shared/contract';
import { keyLookup } from '../../src/main/signing/debsign';
import { debsignRunner } from '../../src/main/signing/run-debsign';
import { have, missingDebianTools } from '../support/debian-fixtures';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import { realPackages, type SourcePackage } from '../support/real-packages';
import { hasServer, testServer } from '../support/sandbox';
import { serviceBridge, type ServiceBridge } from '../support/service-bridge';

const current = hasServer('current') ? testServer('current') : null;
const realWork = current?.realWork ?? null;
const developers = current?.developers ?? null;
const SIGNING_TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign'];
const canRun =
  realWork !== null &&
  developers !== null &&
  missingDebianTools() === undefined &&
  SIGNING_TOOLS.every(have);

/** The pipeline of a small package takes about 5 minutes on the sandbox's worker. */
const PIPELINE_MS = 25 * 60_000;

describe.runIf(canRun)("the Debian developer's path on the current server", () => {
  const server = testServer('current');
  const queue = developers?.uploadQueue.dir ?? '';
  let s: ServiceBridge;
  let gnupg: TestGnupg;
  let key = '';
  let downloads: string;
  let nextDestination = '';
  let pipeline: WorkRequestResponse | undefined;
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
    const destination = await s.api.downloads.chooseDestination({
      kind: 'file',
      suggestedName: path,
    });
    const job = await s.api.downloads.file({
      artifactId,
      path,
      destinationId: destination?.destinationId ?? '',
    });
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
    // The uploader's key: the .changes' Changed-By, as debsign picks it.
    gnupg = await testGnupg();
    key = await gnupg.addKey('Debusine Desktop Tests <tests@example.org>');
    const data = await mkdtemp(join(tmpdir(), 'real-work-env-'));
    s = await serviceBridge(
      {
        env: {
          DEBUSINE_DESKTOP_CLI_CONFIG: join(data, 'none.ini'),
          DEBUSINE_SANDBOX_HOME: join(data, 'none'),
          DEBUSINE_DESKTOP_DPUT_DIRS: developers?.dputProfiles ?? '',
        },
        signing: { keys: keyLookup(gnupg.env), run: debsignRunner(gnupg.env) },
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

    const { good, failing: broken } = realPackages();
    // The queue keeps what earlier runs uploaded, under the same names: only this run's count.
    for (const pkg of [good, broken]) {
      for (const name of inQueue(pkg)) rmSync(join(queue, name), { force: true });
    }
    // The failing build first: it is short, and its test can end while the pipeline runs.
    failing = await dput(broken);
    pipeline = await dput(good);
  }, 300_000);

  afterAll(async () => {
    // Nothing of ours stays queued for the next tests, whatever happened here.
    for (const root of [failing, pipeline]) {
      if (!root) continue;
      const now = await s.api.workRequests.get({ id: idOf(root) });
      if (now.status !== 'completed' && now.status !== 'aborted') {
        await s.api.workRequests.abort({ id: idOf(root) });
      }
    }
    await s.close();
    await gnupg.close();
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

  it(
    "waits for the signature, which the app gives with the uploader's key; the queue receives the signed upload",
    { timeout: PIPELINE_MS },
    async () => {
      const waits = await s.made.notifier.waitFor(
        (n) => n.title === `Workflow #${String(idOf(pipeline))} waits for your signature`,
        PIPELINE_MS,
      );
      const step = await s.api.workRequests.get({ id: waits.notification.workRequestId });
      expect(step).toMatchObject({ task_type: 'Wait', task_name: 'externaldebsign' });
      // What the step's "Sign and upload" asks of main.
      const signed = await s.api.signing.signAndComplete({ workRequestId: step.id });
      if (signed.status !== 'signed') throw new Error(`not signed: ${signed.reason}`);
      expect(signed.key.fingerprint).toBe(key);
      expect(signed.keyReason).toContain('the uploader');

      const root = await completion(idOf(pipeline), 10 * 60_000);
      expect(root).toMatchObject({ status: 'completed', result: 'success' });
      const pkg = realPackages().good;
      const uploaded = inQueue(pkg).sort();
      expect(uploaded).toEqual(
        [basename(pkg.changes), basename(pkg.dsc), basename(pkg.tarball)].sort(),
      );
      for (const name of [basename(pkg.changes), basename(pkg.dsc)]) {
        expect(await gnupg.signer(join(queue, name)), name).toBe(key);
      }
    },
  );

  it(
    "has run the whole debian_pipeline, and the app read every step's completion from the websocket",
    { timeout: PIPELINE_MS },
    async () => {
      const root = await completion(idOf(pipeline), PIPELINE_MS);
      const steps = await stepsOf(idOf(pipeline));
      const summary = steps.map(
        (wr) => `${wr.task_type}/${wr.task_name} #${String(wr.id)}: ${wr.status}/${wr.result}`,
      );
      expect(root.result, summary.join('\n')).toBe('success');
      const workers = steps.filter((wr) => wr.task_type === 'Worker').map((wr) => wr.task_name);
      expect(new Set(workers)).toEqual(
        new Set(['sbuild', 'lintian', 'autopkgtest', 'piuparts', 'blhc']),
      );
      for (const step of steps) {
        expect(step.status, summary.join('\n')).toBe('completed');
        expect(['success', 'skipped'], summary.join('\n')).toContain(step.result);
      }
      // Each step's completion came through the app's watcher and was read by its router,
      // which is what names the step's workflow root.
      const completed = s.eventsOf('workRequest.completed');
      for (const step of steps) {
        const event = completed.find((e) => e.workRequestId === step.id);
        expect(event, `no completion seen for step #${String(step.id)}`).toBeDefined();
        expect(event).toMatchObject({ result: step.result, workflowRoot: idOf(pipeline) });
      }
    },
  );

  it('gives the build log, binary packages, upload and debug logs of sbuild; the .deb is sound', async () => {
    const sbuild = onlyStep(await stepsOf(idOf(pipeline)), 'sbuild');
    const artifacts = await artifactsOf(sbuild);
    const byCategory = new Map(artifacts.map((a) => [a.category, a]));
    for (const category of [
      'debian:package-build-log',
      'debian:binary-package',
      'debian:upload',
      'debusine:work-request-debug-logs',
    ]) {
      expect([...byCategory.keys()]).toContain(category);
    }
    const upload = byCategory.get('debian:upload');
    const uploadFiles = Object.keys(upload?.files ?? {});
    expect(uploadFiles).toEqual(
      expect.arrayContaining(['ddt-hello_1.0_amd64.changes', 'ddt-hello_1.0_amd64.deb']),
    );
    const debug = byCategory.get('debusine:work-request-debug-logs');
    expect(Object.keys(debug?.files ?? {})).toContain('cmd-output.log');

    const binaries = artifacts.filter((a) => a.category === 'debian:binary-package');
    const main = binaries.find((a) => 'ddt-hello_1.0_amd64.deb' in a.files);
    expect(main, binaries.map((a) => Object.keys(a.files).join(' ')).join('; ')).toBeDefined();
    const deb = await download(main?.id ?? 0, 'ddt-hello_1.0_amd64.deb');
    const field = (name: string) =>
      execFileSync('dpkg-deb', ['--field', deb, name], { encoding: 'utf8' }).trim();
    expect([field('Package'), field('Version'), field('Architecture')]).toEqual([
      'ddt-hello',
      '1.0',
      'amd64',
    ]);
    const contents = execFileSync('dpkg-deb', ['--contents', deb], { encoding: 'utf8' });
    expect(contents).toMatch(/\.\/usr\/bin\/ddt-hello$/m);
    expect(contents).toMatch(/\.\/usr\/share\/man\/man1\/ddt-hello\.1\.gz$/m);
    // This run's program: its greeting (with the run's nonce) is in the binary.
    const program = execFileSync('dpkg-deb', ['--fsys-tarfile', deb], { maxBuffer: 64 << 20 });
    expect(program.includes(Buffer.from(realPackages().good.greeting))).toBe(true);

    const log = byCategory.get('debian:package-build-log');
    const name = Object.keys(log?.files ?? {}).find((f) => f.endsWith('.build')) ?? '';
    const text = await readFile(await download(log?.id ?? 0, name), 'utf8');
    expect(text).toMatch(/^Status: successful$/m);
  });

  it("gives lintian's analysis, with its tag counts by severity and no error", async () => {
    const lintian = onlyStep(await stepsOf(idOf(pipeline)), 'lintian');
    const artifacts = (await artifactsOf(lintian)).filter((a) => a.category === 'debian:lintian');
    expect(artifacts.length).toBeGreaterThan(0);
    for (const artifact of artifacts) {
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
    const analysis = JSON.parse(
      await readFile(await download(artifacts[0]?.id ?? 0, 'analysis.json'), 'utf8'),
    ) as unknown;
    expect(analysis).toBeTypeOf('object');
  });
});
