/**
 * Every end of a followed workflow notifies, once: success, failure and error, which the
 * completion websocket tells, and `aborted`, which it never does. A real debian_pipeline
 * whose build fails ends exactly so: the sbuild step completes with `failure`, the QA
 * steps that needed it are aborted, then the root, all without a message for the root
 * (Debusine notifies from `mark_completed` only). The router reads the root after its
 * steps complete, sweeps the watch list now and then, and catches up after an outage; the
 * notification names the failed step and its log line, and opens the log there.
 */
import { describe, expect, it } from 'vitest';
import { NotificationGate } from '../../src/main/notify/gate';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import { explainWorkRequest } from '../../src/main/results/explainer';
import { explainFailure, type FailureSources } from '../../src/main/results/failure-reason';
import type { WorkRequestEnded } from '../../src/main/watch/completion-router';
import type { NotifyFilter } from '../../src/main/watch/router-options';
import type { NotificationPreferences } from '../../src/shared/contract';
import type { WorkRequestResponse } from '../../src/shared/models';
import { routerFixture, workRequestSourceOf } from '../support/completion-router';
import {
  failedBuildLogLines,
  realArtifact as artifact,
  realWorkSources,
} from '../support/real-work';
import { workRequestFixture as wr } from '../support/work-requests';

/** The real failed build's artifacts: its log says where `make` broke. */
async function buildSources(): Promise<FailureSources> {
  return realWorkSources({ 424: await artifact(424), 405: await artifact(405) });
}

const ROOT = 30;
const SBUILD_WORKFLOW = 31;
const SBUILD = 32;
const QA = 33;
const LINTIAN = 34;

/** A debian_pipeline as 0.16 builds it, running: sbuild and qa sub-workflows, one step each. */
function pipeline(): Record<
  'root' | 'sbuildWorkflow' | 'sbuild' | 'qa' | 'lintian',
  WorkRequestResponse
> {
  const running = { status: 'running', result: '', completed_at: null };
  return {
    root: wr(ROOT, {
      ...running,
      task_type: 'Workflow',
      task_name: 'debian_pipeline',
      workflow_root: ROOT,
      parent: null,
    }),
    sbuildWorkflow: wr(SBUILD_WORKFLOW, {
      ...running,
      task_type: 'Workflow',
      task_name: 'sbuild',
      workflow_root: ROOT,
      parent: ROOT,
    }),
    sbuild: wr(SBUILD, {
      ...running,
      task_name: 'sbuild',
      workflow_root: ROOT,
      parent: SBUILD_WORKFLOW,
      artifacts: [424, 405],
    }),
    qa: wr(QA, {
      ...running,
      task_type: 'Workflow',
      task_name: 'qa',
      workflow_root: ROOT,
      parent: ROOT,
    }),
    lintian: wr(LINTIAN, {
      status: 'blocked',
      result: '',
      completed_at: null,
      task_name: 'lintian',
      workflow_root: ROOT,
      parent: QA,
    }),
  };
}

type Pipeline = ReturnType<typeof pipeline>;

/** The build fails: what the server has made of the pipeline once the step's completion is sent. */
function buildFails(p: Pipeline): void {
  Object.assign(p.sbuild, {
    status: 'completed',
    result: 'failure',
    completed_at: '2026-11-26T02:50:30.100000Z',
  });
  Object.assign(p.sbuildWorkflow, {
    status: 'completed',
    result: 'failure',
    completed_at: '2026-11-26T02:50:30.200000Z',
  });
  for (const aborted of [p.lintian, p.qa, p.root]) {
    Object.assign(aborted, {
      status: 'aborted',
      result: '',
      completed_at: '2026-11-26T02:50:30.300000Z',
    });
  }
}

const completion = (w: WorkRequestResponse) => ({
  workRequestId: w.id,
  completedAt: w.completed_at ?? '',
  result: w.result,
  receivedAt: Date.now(),
});

/** A router over the pipeline, reading roots within milliseconds of a step's completion. */
async function setup(p: Pipeline, filter?: NotifyFilter, isMine?: () => Promise<boolean>) {
  const all = Object.values(p);
  const gets: number[] = [];
  const client = workRequestSourceOf(all, { lists: true, gets });
  const sources = await buildSources();
  const explain = (w: WorkRequestResponse) => explainFailure(w, sources);
  const t = await routerFixture(all, {
    client,
    explain,
    explainById: (id) => explainWorkRequest(client, explain, id),
    endChecks: { rootDelaysMs: [5, 40, 80], sweepFirstMs: 60_000 },
    ...(filter ? { filter } : {}),
    ...(isMine ? { isMine } : {}),
  });
  const ended: WorkRequestEnded[] = [];
  t.router.on('ended', (e) => ended.push(e));
  return { ...t, gets, ended };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('a watched pipeline whose build fails ends aborted', () => {
  it('notifies once, naming the failed step and its log line, and opens the log there', async () => {
    const p = pipeline();
    const t = await setup(p);
    await t.router.started(p.root);
    buildFails(p);
    // What the websocket sends: the step and its sub-workflow. Nothing for the root.
    await t.router.handleCompletion(completion(p.sbuild));
    await t.router.handleCompletion(completion(p.sbuildWorkflow));
    await expect.poll(() => t.notifier.shown.length).toBe(1);
    await settle();
    expect(t.notifier.shown).toHaveLength(1);
    const [shown] = t.notifier.shown;
    const n = shown?.notification;
    expect(n?.title).toBe('Aborted: workflow debian_pipeline #30');
    const lines = await failedBuildLogLines();
    const line = lines.indexOf('make: *** [debian/rules:4: build-arch] Error 1');
    expect(line).toBeGreaterThan(0);
    expect(n?.body).toBe(
      `sbuild ddt-broken 1.0 amd64 (#32) — build: make: *** [debian/rules:4: build-arch] Error 1 (log line ${String(line + 1)})\n` +
        'Workspace System · aborted',
    );
    expect(n?.urgency).toBe('critical');
    expect(n?.actions.map((a) => a.id)).toEqual(['open-log', 'retry', 'open-in-browser']);
    expect(n).toMatchObject({ result: 'aborted', reason: { workRequestId: SBUILD } });

    // Its click and its "Open log" button open the build log at the line where make broke.
    const opened: unknown[] = [];
    t.router.on('openLog', (target) => opened.push(target));
    t.router.on('open', (id) => opened.push(id));
    shown?.handlers.onClick();
    shown?.handlers.onAction('open-log');
    const atLine = {
      workRequestId: SBUILD,
      artifactId: 424,
      path: expect.any(String) as string,
      line,
    };
    expect(opened).toEqual([atLine, atLine]);

    // The watch list (what the counters read) knows it ended; the app heard of it once.
    expect(t.watchList.get(ROOT)).toMatchObject({ status: 'aborted', result: '' });
    expect(t.ended).toEqual([
      {
        workRequestId: ROOT,
        completedAt: p.root.completed_at,
        status: 'aborted',
        result: '',
        workspace: 'System',
        rootId: null,
      },
    ]);
    // Later reads of the root, a sweep and a catch-up find the same end: nothing more.
    await t.router.catchUp();
    await settle();
    expect(t.notifier.shown).toHaveLength(1);
    await t.done();
  });

  it('stops reading a root once it has ended, and reads one still running a few times only', async () => {
    const p = pipeline();
    const t = await setup(p);
    await t.router.started(p.root);
    // A step succeeds; the workflow goes on: its root is read at each of the delays, then no more.
    Object.assign(p.sbuild, {
      status: 'completed',
      result: 'success',
      completed_at: '2026-11-26T02:50:30Z',
    });
    t.gets.length = 0;
    await t.router.handleCompletion(completion(p.sbuild));
    await settle();
    expect(t.gets.filter((id) => id === ROOT)).toHaveLength(3);
    expect(t.notifier.shown).toHaveLength(0);
    await t.done();
  });
});

describe('every end of a watched root notifies once', () => {
  it.each(['success', 'failure', 'error'])(
    '%s: from the websocket and from a read of the root, one notification',
    async (result) => {
      const p = pipeline();
      const t = await setup(p);
      await t.router.started(p.root);
      Object.assign(p.sbuild, {
        status: 'completed',
        result,
        completed_at: '2026-11-26T02:50:30Z',
      });
      // The server writes the fraction the read shows; the websocket's message leaves out a
      // zero one. Both are the same end.
      Object.assign(p.root, {
        status: 'completed',
        result,
        completed_at: '2026-11-26T02:50:31.000000Z',
      });
      await t.router.handleCompletion(completion(p.sbuild));
      await settle();
      await t.router.handleCompletion({
        ...completion(p.root),
        completedAt: '2026-11-26T02:50:31Z',
      });
      await t.router.catchUp();
      await settle();
      expect(t.notifier.shown.map((s) => s.notification.title)).toEqual([
        `${{ success: 'Succeeded', failure: 'Failed', error: 'Errored' }[result] ?? ''}: workflow debian_pipeline #30`,
      ]);
      expect(t.notifier.shown[0]?.notification.urgency).toBe(
        result === 'success' ? 'normal' : 'critical',
      );
      await t.done();
    },
  );

  it('aborted by hand in the web UI, with no completion at all: the sweep tells it', async () => {
    const p = pipeline();
    const t = await setup(p);
    await t.router.started(p.root);
    Object.assign(p.root, { status: 'aborted', result: '', completed_at: '2026-11-26T03:00:00Z' });
    await t.done();
    // A router whose sweep comes soon (the default waits a minute).
    const soon = await routerFixture(Object.values(p), {
      endChecks: { sweepFirstMs: 20 },
    });
    await soon.router.started({ ...p.root, status: 'running', completed_at: null });
    await expect.poll(() => soon.notifier.shown.length).toBe(1);
    expect(soon.notifier.shown[0]?.notification).toMatchObject({
      title: 'Aborted: workflow debian_pipeline #30',
      body: 'Workspace System · aborted',
      result: 'aborted',
      reason: null,
    });
    await settle();
    expect(soon.notifier.shown).toHaveLength(1);
    await soon.done();
  });

  it('runs the program run on completion for an abort found by reading, with "aborted"', async () => {
    const p = pipeline();
    const runs: string[] = [];
    const soon = await routerFixture(Object.values(p), {
      endChecks: { sweepFirstMs: 20 },
      // echo prints what it was given: the id and the end.
      commandHook: () => Promise.resolve({ command: 'echo' }),
    });
    soon.router.on('command', (c) => runs.push('run' in c ? (c.run?.stdout.trim() ?? '') : ''));
    Object.assign(p.root, { status: 'aborted', result: '', completed_at: '2026-11-26T03:00:00Z' });
    await soon.router.started({ ...p.root, status: 'running', completed_at: null });
    await expect.poll(() => runs).toEqual([`${String(p.root.id)} aborted`]);
    await settle();
    expect(runs).toHaveLength(1);
    await soon.done();
  });

  it('aborted while the app was offline: the catch-up after reconnecting tells it, with its step', async () => {
    const p = pipeline();
    const t = await setup(p);
    await t.router.started(p.root);
    buildFails(p);
    // The app saw none of it: reconnecting, it reads what it watches.
    await t.router.catchUp();
    expect(t.notifier.shown).toHaveLength(1);
    expect(t.notifier.shown[0]?.notification.title).toBe('Aborted: workflow debian_pipeline #30');
    // Found by asking the server for the workflow's first failed step.
    expect(t.notifier.shown[0]?.notification.body).toMatch(
      /^sbuild ddt-broken 1\.0 amd64 \(#32\) — build: make/,
    );
    expect(t.ended.map((e) => [e.workRequestId, e.status])).toEqual([[ROOT, 'aborted']]);
    await t.done();
  });
});

describe('in every mode that notifies a workflow nobody watches', () => {
  it.each([
    ['everything in the workspace', { mode: 'workspace' as const, workspaces: [] }],
    ['mine', { mode: 'mine' as const, workspaces: [] }],
  ])('%s: its abort after a failed build notifies once', async (_name, filter) => {
    const p = pipeline();
    const t = await setup(p, filter, () => Promise.resolve(true));
    buildFails(p);
    await t.router.handleCompletion(completion(p.sbuild));
    await t.router.handleCompletion(completion(p.sbuildWorkflow));
    await expect.poll(() => t.notifier.shown.length).toBe(1);
    await settle();
    expect(t.notifier.shown.map((s) => s.notification.title)).toEqual([
      'Aborted: workflow debian_pipeline #30',
    ]);
    expect(t.notifier.shown[0]?.notification.body).toMatch(/^sbuild ddt-broken 1\.0 amd64 \(#32\)/);
    await t.done();
  });

  it('watched only: a workflow nobody watches is not read at all', async () => {
    const p = pipeline();
    const t = await setup(p);
    buildFails(p);
    t.gets.length = 0;
    await t.router.handleCompletion(completion(p.sbuild));
    await settle();
    expect(t.notifier.shown).toHaveLength(0);
    expect(t.gets).not.toContain(ROOT);
    await t.done();
  });
});

describe('failures only', () => {
  it('keeps an aborted workflow, as it keeps a failure', () => {
    const prefs: NotificationPreferences = {
      mode: 'watched',
      workspaces: [],
      failuresOnly: true,
      snoozedUntil: null,
    };
    const inner = new RecordingNotifier();
    const gate = new NotificationGate({ inner, settings: () => prefs, recorded: () => undefined });
    const base = {
      kind: 'completion' as const,
      body: '',
      actions: [],
      rootId: null,
      reason: null,
    };
    const none = { onClick: () => undefined, onAction: () => undefined };
    gate.show(
      { ...base, key: 'a', title: 'a', workRequestId: 1, urgency: 'normal', result: 'success' },
      none,
    );
    gate.show(
      { ...base, key: 'b', title: 'b', workRequestId: 2, urgency: 'critical', result: 'aborted' },
      none,
    );
    expect(inner.shown.map((s) => s.notification.workRequestId)).toEqual([2]);
  });
});
