import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { analyseSbuildLog } from '../../src/main/logs/sbuild-log';
import { explainWorkRequest } from '../../src/main/results/explainer';
import { explainFailure, type FailureSources } from '../../src/main/results/failure-reason';
import { DebusineError } from '../../src/shared/errors';
import type { WorkRequestResponse } from '../../src/shared/models';
import { routerFixture, workRequestSourceOf } from '../support/completion-router';
// What the sandbox's real tasks produced (fixtures/real-work): a build whose debian/rules
// exits 1, a clean lintian run, a passing autopkgtest.
import {
  failedBuildLogLines,
  realArtifact as artifact,
  realWorkSources as sources,
} from '../support/real-work';
import { workRequestFixture as wr } from '../support/work-requests';

const failedSbuild = wr(31, {
  task_name: 'sbuild',
  result: 'failure',
  artifacts: [424, 405],
  workflow_root: 30,
  parent: 30,
});

describe('why a task failed', () => {
  it("names a failed build's package and the line where it broke, with that line to open", async () => {
    const log = await artifact(424);
    const opened: string[] = [];
    const reason = await explainFailure(
      failedSbuild,
      sources({ 424: log, 405: await artifact(405) }, opened),
    );
    const path = Object.keys(log.files)[0] ?? '';
    expect(opened).toEqual([`424/${path}`]);
    expect(reason).toEqual({
      workRequestId: 31,
      what: 'sbuild ddt-broken 1.0 amd64',
      why: 'build: make: *** [debian/rules:4: build-arch] Error 1',
      log: { artifactId: 424, path, line: expect.any(Number) as number },
    });
    const lines = await failedBuildLogLines();
    expect(lines[reason?.log?.line ?? -1]).toBe('make: *** [debian/rules:4: build-arch] Error 1');
  });

  it('counts lintian errors and warnings, and names failed autopkgtests', async () => {
    const lintian = await artifact(415);
    const failing = {
      ...lintian,
      data: { summary: { tags_count_by_severity: { error: 2, warning: 1 } } },
    };
    const lint = wr(40, { task_name: 'lintian', result: 'failure', artifacts: [415] });
    expect(await explainFailure(lint, sources({ 415: failing }))).toMatchObject({
      what: 'lintian',
      why: '2 errors, 1 warning',
    });
    const test = await artifact(413);
    const broken = {
      ...test,
      data: { results: { greets: { status: 'FAIL', details: 'non-zero exit status 1' } } },
    };
    const apt = wr(41, { task_name: 'autopkgtest', result: 'failure', artifacts: [413] });
    expect(await explainFailure(apt, sources({ 413: broken }))).toMatchObject({
      what: 'autopkgtest',
      why: 'greets FAIL (non-zero exit status 1)',
      log: { artifactId: 413, path: 'log', line: 0 },
    });
  });

  it('says nothing for a success, a workflow, or a kind it does not know', async () => {
    const none = sources({});
    expect(await explainFailure({ ...failedSbuild, result: 'success' }, none)).toBeNull();
    expect(await explainFailure({ ...failedSbuild, task_type: 'Workflow' }, none)).toBeNull();
    expect(
      await explainFailure({ ...failedSbuild, task_name: 'noop', artifacts: [] }, none),
    ).toBeNull();
  });

  it('cuts a hostile error line to one short line of text', async () => {
    const log = await artifact(424);
    const reason = await explainFailure(failedSbuild, {
      ...sources({ 424: log, 405: await artifact(405) }),
      analyseLog: () =>
        Promise.resolve({
          ...analyseSbuildLog([]),
          summary: { ...analyseSbuildLog([]).summary, failStage: 'build' },
          error: { line: 9, text: `error:\n${'x'.repeat(10_000)}` },
        }),
    });
    expect(reason?.why.length).toBeLessThanOrEqual(200 + 'build: '.length);
    expect(reason?.why).not.toContain('\n');
  });
});

describe('failure notifications say why, and open the log at that line', () => {
  const setup = (requests: WorkRequestResponse[], explained: FailureSources) => {
    const client = workRequestSourceOf(requests, { lists: true });
    const explain = (w: WorkRequestResponse) => explainFailure(w, explained);
    return routerFixture(requests, {
      client,
      explain,
      explainById: (id) => explainWorkRequest(client, explain, id),
    });
  };
  const event = (id: number, result: string) => ({
    workRequestId: id,
    completedAt: `2026-01-01T00:00:${String(id)}Z`,
    result,
    receivedAt: Date.now(),
  });

  /** The router over workflow #30, watched while it ran, whose build step #31 failed. */
  const watchedFailedPipeline = async () => {
    const root = wr(30, { task_type: 'Workflow', task_name: 'debian_pipeline', result: 'failure' });
    const t = await setup(
      [root, failedSbuild],
      sources({ 424: await artifact(424), 405: await artifact(405) }),
    );
    await t.router.started({ ...root, status: 'running', result: '' });
    return t;
  };

  it("a watched workflow's failure names its failed build step's error line", async () => {
    const t = await watchedFailedPipeline();
    await t.router.handleCompletion(event(31, 'failure'));
    expect(t.notifier.shown).toHaveLength(0);
    await t.router.handleCompletion(event(30, 'failure'));
    const [shown] = t.notifier.shown;
    expect(shown?.notification.title).toBe('Failed: workflow debian_pipeline #30');
    // The app's own list of notifications keeps the reason, to open the same line.
    expect(shown?.notification).toMatchObject({
      reason: { workRequestId: 31, log: { artifactId: 424 } },
    });
    expect(shown?.notification.body).toMatch(
      /^sbuild ddt-broken 1\.0 amd64 \(#31\) — build: make: \*\*\* \[debian\/rules:4: build-arch\] Error 1 \(log line \d+\)\n/,
    );
    const opened: unknown[] = [];
    t.router.on('openLog', (target) => opened.push(target));
    t.router.on('open', (id) => opened.push(id));
    shown?.handlers.onClick();
    expect(opened).toEqual([
      expect.objectContaining({
        workRequestId: 31,
        artifactId: 424,
        line: expect.any(Number) as number,
      }),
    ]);
    await t.done();
  });

  it('asks the server only about what the user watches, not every failure of a workspace', async () => {
    // A big workflow aborted, or failing, elsewhere in a watched workspace: many failed
    // workflows whose steps the app did not see. Each question would cost the server a list.
    const others = [50, 51, 52].map((id) =>
      wr(id, { task_type: 'Workflow', task_name: 'qa', result: 'failure' }),
    );
    const asked: number[] = [];
    const t = await routerFixture(others, {
      filter: { mode: 'workspace', workspaces: [] },
      explain: () => Promise.resolve(null),
      explainById: (id) => {
        asked.push(id);
        return Promise.resolve(null);
      },
    });
    for (const w of others) await t.router.handleCompletion(event(w.id, 'failure'));
    expect(t.notifier.shown).toHaveLength(3);
    expect(asked).toEqual([]);
    // A watched one is asked about.
    await t.router.watch(50);
    await t.router.handleCompletion({ ...event(50, 'failure'), completedAt: 'later' });
    expect(asked).toEqual([50]);
    await t.done();
  });

  it('a workflow that failed while the app was away still names its failed step', async () => {
    // Watched while running; then the app was offline while its build step failed and the
    // workflow ended. The catch-up after reconnecting is all the router hears of it.
    const t = await watchedFailedPipeline();
    await t.router.catchUp();
    const [shown] = t.notifier.shown;
    expect(shown?.notification.title).toBe('Failed: workflow debian_pipeline #30');
    expect(shown?.notification.body).toMatch(
      /^sbuild ddt-broken 1\.0 amd64 \(#31\) — build: make: \*\*\* \[debian\/rules:4: build-arch\] Error 1 \(log line \d+\)\n/,
    );
    const opened: unknown[] = [];
    t.router.on('openLog', (target) => opened.push(target));
    shown?.handlers.onClick();
    expect(opened).toEqual([expect.objectContaining({ workRequestId: 31, artifactId: 424 })]);
    await t.done();
  });

  it('a failure whose explanation fails still notifies, naming the result', async () => {
    const lone = { ...failedSbuild, workflow_root: null, parent: null };
    const t = await setup([lone], {
      artifact: () => Promise.reject(new DebusineError('network', 'down')),
      analyseLog: () => Promise.resolve(null),
    });
    const problems: unknown[] = [];
    t.router.on('error', (e) => problems.push(e));
    await t.router.started({ ...lone, status: 'running', result: '' });
    await t.router.handleCompletion(event(31, 'failure'));
    expect(t.notifier.shown[0]?.notification.body).toBe('Workspace System · result: failure');
    expect(problems).toHaveLength(1);
    await t.done();
  });
});

describe("a workflow's failure, asked for by id", () => {
  it("is its first failed step's, found among the worker tasks newer than the workflow", async () => {
    const root = wr(30, { task_type: 'Workflow', task_name: 'debian_pipeline', result: 'failure' });
    const later = wr(35, { task_name: 'lintian', result: 'failure', workflow_root: 30 });
    const other = wr(33, { task_name: 'sbuild', result: 'failure', workflow_root: 29 });
    const older = wr(12, { task_name: 'sbuild', result: 'failure', workflow_root: 30 });
    const listed: number[] = [];
    const client = {
      workRequestGet: (id: number) => Promise.resolve(id === 30 ? root : failedSbuild),
      // Newest first, as the server lists them; reading stops at the first one below the workflow.
      async *workRequestIter() {
        for (const step of [later, other, failedSbuild, root, older]) {
          listed.push(step.id);
          await Promise.resolve();
          yield step;
        }
      },
    } as unknown as DebusineClient;
    const explained: number[] = [];
    const reason = await explainWorkRequest(
      client,
      (step) => {
        explained.push(step.id);
        return Promise.resolve({
          workRequestId: step.id,
          what: step.task_name,
          why: 'x',
          log: null,
        });
      },
      30,
    );
    expect(reason).toMatchObject({ workRequestId: 31, what: 'sbuild' });
    expect(explained).toEqual([31]);
    expect(listed).toEqual([35, 33, 31, 30, 12]);
    expect(await explainWorkRequest(client, () => Promise.resolve(null), 31)).toBeNull();
  });
});
