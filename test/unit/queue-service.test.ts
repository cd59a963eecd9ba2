/**
 * `queue.estimate` against a stand-in client: the step's place from the pending work the
 * user sees and the server's counts, its usual wait from the metrics text, its usual run
 * from the task history's last success; and what happens when the server cannot say (an
 * earlier server without counts: the pending list is not even read), or lies (a duration
 * out of bounds is not believed).
 */
import { describe, expect, it, vi } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { STUCK_TTL_MS, WORKFLOW_SCAN, queueHandlers } from '../../src/main/service/queue';
import type { SessionProvider } from '../../src/main/service/session';
import { DebusineError } from '../../src/shared/errors';
import type { WorkRequestResponse } from '../../src/shared/models';
import { testCaller } from '../support/caller';
import { pendingBuildFixture } from '../support/work-requests';

const wr = pendingBuildFixture;

const METRICS = [
  'debusine_work_request_start_latency_bucket{le="60.0",priority="normal",task_name="sbuild",task_type="Worker"} 1.0',
  'debusine_work_request_start_latency_bucket{le="300.0",priority="normal",task_name="sbuild",task_type="Worker"} 3.0',
  'debusine_work_request_start_latency_bucket{le="+Inf",priority="normal",task_name="sbuild",task_type="Worker"} 4.0',
  'debusine_work_request_start_latency_count{priority="normal",task_name="sbuild",task_type="Worker"} 4.0',
].join('\n');

interface Stand {
  target: WorkRequestResponse;
  pending?: WorkRequestResponse[];
  /** The completed workflow roots, newest first. */
  roots?: WorkRequestResponse[];
  status?: () => Promise<unknown>;
  lookup?: () => Promise<unknown>;
  /** Whether the server filters its work request list (0.11 does not). */
  filters?: boolean;
}

function handlers(stand: Stand) {
  const iter = vi.fn(async function* (filters?: { taskType?: string }) {
    await Promise.resolve();
    yield* (filters?.taskType === 'Workflow' ? stand.roots : stand.pending) ?? [];
  });
  const lookupSingle = vi.fn(
    stand.lookup ?? (() => Promise.reject(new DebusineError('not-found', 'no such item'))),
  );
  const client = {
    workRequestGet: () => Promise.resolve(stand.target),
    serviceStatus:
      stand.status ??
      (() =>
        Promise.resolve({
          worker_tasks_arch: { amd64: { pending: 5, running: 1 } },
          external_workers_arch: {
            amd64: { registered: 1, connected: 1, idle: 0, busy: 1, extra: 'x' },
          },
        })),
    openMetrics: () => Promise.resolve(METRICS),
    workRequestIter: iter,
    lookupSingle,
    serverRevision: () =>
      Promise.resolve({ features: { workRequestFilters: stand.filters ?? true } }),
  } as unknown as DebusineClient;
  const session = { client: () => client } as unknown as SessionProvider;
  const estimate = (id: number) =>
    queueHandlers({ session, watched: () => [] })['queue.estimate']({ id }, testCaller());
  return { estimate, iter, lookupSingle };
}

describe('queue.estimate', () => {
  it('places a pending build among the pending work of its architecture, with the hidden rest', async () => {
    const { estimate } = handlers({
      target: wr({}),
      pending: [
        wr({ id: 40, created_at: '2026-11-29T10:00:00Z' }),
        wr({ id: 60, created_at: '2026-11-29T11:00:00Z' }),
        wr({ id: 41, scheduler_tags_required: ['worker:build-arch:i386'] }),
        wr({}),
      ],
    });
    const e = await estimate(50);
    expect(e.position).toEqual({
      architecture: 'amd64',
      ahead: 1,
      // The server counts 5 pending on amd64; the user sees 3 of them, this one included.
      hidden: 2,
      truncated: false,
      workers: { registered: 1, connected: 1, idle: 0, busy: 1 },
    });
    expect(e.usualStart).toEqual({ kind: 'within', seconds: 300, samples: 4 });
    // A pending step's package is not known yet: its history is not asked, nor said to be empty.
    expect([e.usualRun, e.historyAsked]).toEqual([null, false]);
    expect(e.missing).toEqual([]);
  });

  it('says that nothing can start on an architecture no worker has', async () => {
    const { estimate } = handlers({
      target: wr({ scheduler_tags_required: ['worker:build-arch:arm64'] }),
      pending: [wr({ scheduler_tags_required: ['worker:build-arch:arm64'] })],
    });
    expect((await estimate(50)).position).toMatchObject({
      architecture: 'arm64',
      ahead: 0,
      hidden: 0,
      workers: { registered: 0, connected: 0, idle: 0, busy: 0 },
    });
  });

  it('reads no pending list from a server that cannot filter it, and says so', async () => {
    const { estimate, iter } = handlers({ target: wr({}), filters: false });
    const e = await estimate(50);
    expect(e.position).toBeNull();
    expect(iter).not.toHaveBeenCalled();
    expect(e.missing).toEqual([
      'the place in the queue: this server cannot list its pending work alone',
    ]);
    // How long such work waits is still said.
    expect(e.usualStart).toMatchObject({ kind: 'within' });
  });

  it('reads no pending list from a server without counts, and says what is not known', async () => {
    const { estimate, iter } = handlers({
      target: wr({}),
      status: () =>
        Promise.reject(new DebusineError('unsupported', 'serviceStatus is not offered by 0.11')),
    });
    const e = await estimate(50);
    expect(e.position).toBeNull();
    expect(iter).not.toHaveBeenCalled();
    expect(e.missing).toEqual(["the queue's counts: serviceStatus is not offered by 0.11"]);
  });

  it('measures a running build by the last success like it, asked in its own workspace', async () => {
    const running = wr({
      status: 'running',
      started_at: '2026-11-29T10:40:00Z',
      workspace: 'developers-alice',
      dynamic_task_data: { subject: 'hello', runtime_context: 'any:amd64:amd64' },
    });
    const { estimate, lookupSingle, iter } = handlers({
      target: running,
      lookup: () =>
        Promise.resolve({
          result_type: 'b',
          collection_item: {
            name: 'x',
            data: {
              result: 'success',
              timestamp: 1795895182,
              work_request_id: 12,
              runtime_statistics: { duration: 340 },
            },
          },
        }),
    });
    const e = await estimate(50);
    expect(lookupSingle).toHaveBeenCalledWith({
      lookup: '_@debusine:task-history/last-success:Worker:sbuild:hello:any%3Aamd64%3Aamd64',
      workspace: 'developers-alice',
      expect_type: 'bare',
    });
    expect(e.usualRun).toEqual({
      seconds: 340,
      endedAt: new Date(1795895182000).toISOString(),
      workRequestId: 12,
    });
    // A running step has no place in the queue.
    expect([e.position, e.usualStart]).toEqual([null, null]);
    expect(iter).not.toHaveBeenCalled();
  });

  it('takes no earlier run for an answer, and a lying one for none', async () => {
    const running = wr({
      status: 'running',
      dynamic_task_data: { subject: 'hello', runtime_context: 'any:amd64:amd64' },
    });
    expect((await handlers({ target: running }).estimate(50)).usualRun).toBeNull();
    expect((await handlers({ target: running }).estimate(50)).missing).toEqual([]);
    const lying = await handlers({
      target: running,
      lookup: () =>
        Promise.resolve({
          collection_item: { data: { result: 'success', runtime_statistics: { duration: -5 } } },
        }),
    }).estimate(50);
    expect(lying.usualRun).toBeNull();
    const refused = await handlers({
      target: running,
      lookup: () => Promise.reject(new DebusineError('forbidden', 'not yours')),
    }).estimate(50);
    expect(refused.missing).toEqual(['earlier runs: not yours']);
  });

  it('says nothing about a step that has ended or needs no worker', async () => {
    for (const target of [wr({ status: 'completed' }), wr({ task_type: 'Workflow' })]) {
      const { estimate, iter, lookupSingle } = handlers({ target });
      const e = await estimate(50);
      expect([e.position, e.usualStart, e.usualRun]).toEqual([null, null, null]);
      if (target.status === 'completed') expect(lookupSingle).not.toHaveBeenCalled();
      expect(iter).not.toHaveBeenCalled();
    }
  });
});

describe('queue.estimate of a running workflow', () => {
  const pipeline = (id: number, extra: Partial<WorkRequestResponse> & Record<string, unknown>) =>
    wr({
      id,
      task_type: 'Workflow',
      task_name: 'debian_pipeline',
      scheduler_tags_required: [],
      parent: null,
      status: 'completed',
      result: 'success',
      started_at: '2026-11-28T10:00:00Z',
      completed_at: '2026-11-28T10:24:00Z',
      dynamic_task_data: { subject: 'hello' },
      ...extra,
    });
  const running = pipeline(90, {
    status: 'running',
    result: '',
    started_at: '2026-11-29T14:00:00Z',
    completed_at: null,
  });

  it('measures it by the last success of the same workflow for the same package there', async () => {
    const roots = [
      pipeline(80, { result: 'failure' }),
      pipeline(79, { dynamic_task_data: { subject: 'hello-other' } }),
      pipeline(78, { workspace: 'elsewhere' }),
      pipeline(77, { task_name: 'upload_to_unstable' }),
      pipeline(76, { parent: 5 }),
      // Its clock runs backwards: not believed.
      pipeline(75, { completed_at: '2026-11-28T09:00:00Z' }),
      pipeline(74, { completed_at: '2026-11-28T10:30:00Z' }),
      pipeline(73, {}),
    ];
    const { estimate, iter, lookupSingle } = handlers({ target: running, roots });
    const e = await estimate(90);
    expect(iter).toHaveBeenCalledWith({
      status: 'completed',
      taskType: 'Workflow',
      rootOnly: true,
    });
    expect(e).toMatchObject({
      historyAsked: true,
      usualRun: { seconds: 1800, endedAt: '2026-11-28T10:30:00.000Z', workRequestId: 74 },
      missing: [],
      position: null,
    });
    // The task history has no workflows: it is not asked.
    expect(lookupSingle).not.toHaveBeenCalled();
  });

  it('reads a bounded number of roots, and says when none is like it', async () => {
    const others = Array.from({ length: WORKFLOW_SCAN + 5 }, (_, i) =>
      pipeline(1000 - i, { dynamic_task_data: { subject: `p${String(i)}` } }),
    );
    let read = 0;
    const roots = (function* () {
      for (const root of others) {
        read++;
        yield root;
      }
    })();
    const { estimate } = handlers({
      target: running,
      roots: roots as unknown as WorkRequestResponse[],
    });
    const e = await estimate(90);
    expect([e.historyAsked, e.usualRun, e.missing]).toEqual([true, null, []]);
    expect(read).toBe(WORKFLOW_SCAN);
  });

  it('asks nothing of a server that cannot list workflows alone, nor for a workflow without its package', async () => {
    const old = handlers({ target: running, roots: [pipeline(73, {})], filters: false });
    const e = await old.estimate(90);
    expect([e.historyAsked, e.usualRun]).toEqual([false, null]);
    expect(e.missing).toEqual([
      'earlier runs: this server cannot list its completed workflows alone',
    ]);
    expect(old.iter).not.toHaveBeenCalled();
    for (const target of [
      pipeline(91, { status: 'running', dynamic_task_data: null }),
      pipeline(92, { status: 'pending', completed_at: null }),
      pipeline(93, { status: 'running', parent: 90 }),
    ]) {
      const h = handlers({ target, roots: [pipeline(73, {})] });
      expect((await h.estimate(target.id)).historyAsked).toBe(false);
      expect(h.iter).not.toHaveBeenCalled();
    }
  });
});

describe('queue.status', () => {
  it('lists each architecture the server counts, workers and work together, in order', async () => {
    const { status } = handlersFor(() =>
      Promise.resolve({
        external_workers_arch: {
          i386: { registered: 1, connected: 1, idle: 1, busy: 0 },
          amd64: { registered: 2, connected: 0, idle: 0, busy: 0 },
        },
        worker_tasks_arch: { amd64: { pending: 3, running: 0 }, arm64: { pending: 1, running: 0 } },
      }),
    );
    expect(await status()).toEqual({
      architectures: [
        {
          name: 'amd64',
          workers: { registered: 2, connected: 0, idle: 0, busy: 0 },
          pending: 3,
          running: 0,
        },
        // Work no worker could take: counted, with no workers.
        {
          name: 'arm64',
          workers: { registered: 0, connected: 0, idle: 0, busy: 0 },
          pending: 1,
          running: 0,
        },
        {
          name: 'i386',
          workers: { registered: 1, connected: 1, idle: 1, busy: 0 },
          pending: 0,
          running: 0,
        },
      ],
      unavailable: null,
    });
  });

  it('says an older server does not count, and lets any other failure through', async () => {
    const older = handlersFor(() =>
      Promise.reject(new DebusineError('unsupported', 'serviceStatus is not offered by 0.11')),
    );
    expect(await older.status()).toEqual({
      architectures: [],
      unavailable: 'serviceStatus is not offered by 0.11',
    });
    const down = handlersFor(() => Promise.reject(new DebusineError('network', 'cannot reach')));
    await expect(down.status()).rejects.toMatchObject({ code: 'network' });
  });
});

function handlersFor(serviceStatus: () => Promise<unknown>) {
  const client = { serviceStatus } as unknown as DebusineClient;
  const session = { client: () => client } as unknown as SessionProvider;
  return {
    status: () =>
      queueHandlers({ session, watched: () => [] })['queue.status'](undefined, testCaller()),
  };
}

describe('queue.stuck', () => {
  const STATUS = {
    worker_tasks_arch: { amd64: { pending: 3, running: 1 }, arm64: { pending: 2, running: 0 } },
    external_workers_arch: {
      amd64: { registered: 1, connected: 1, idle: 0, busy: 1 },
      arm64: { registered: 1, connected: 0, idle: 0, busy: 0 },
    },
  };
  const pending = [
    // A step of the watched workflow 90, on arm64: stuck.
    wr({ id: 95, workflow_root: 90, scheduler_tags_required: ['worker:build-arch:arm64'] }),
    // The watched standalone 60 on riscv64, which no worker has: stuck.
    wr({ id: 60, scheduler_tags_required: ['worker:build-arch:riscv64'] }),
    // Watched, on amd64, whose worker is connected: it waits its turn.
    wr({ id: 61 }),
    // Someone else's arm64 work: not the user's.
    wr({ id: 70, scheduler_tags_required: ['worker:build-arch:arm64'] }),
  ];

  function stand(options: {
    watched: { workRequestId: number; lastStatus: string | null }[];
    status?: unknown;
    filters?: boolean;
    now?: () => number;
  }) {
    const serviceStatus = vi.fn(() => Promise.resolve(options.status ?? STATUS));
    const iter = vi.fn(async function* () {
      await Promise.resolve();
      yield* pending;
    });
    const client = {
      serviceStatus,
      workRequestIter: iter,
      serverRevision: () =>
        Promise.resolve({ features: { workRequestFilters: options.filters ?? true } }),
    } as unknown as DebusineClient;
    let server = 'one';
    const session = {
      client: () => client,
      active: () => ({ id: server }),
    } as unknown as SessionProvider;
    const h = queueHandlers({
      session,
      watched: () => options.watched,
      ...(options.now ? { now: options.now } : {}),
    });
    return {
      stuck: () => h['queue.stuck'](undefined, testCaller()),
      iter,
      switchTo: (id: string) => {
        server = id;
      },
    };
  }

  const watching = [
    { workRequestId: 90, lastStatus: 'running' },
    { workRequestId: 60, lastStatus: 'pending' },
    { workRequestId: 61, lastStatus: 'pending' },
    { workRequestId: 12, lastStatus: 'completed' },
  ];

  it('names the user’s pending work of an architecture no connected worker has', async () => {
    expect(await stand({ watched: watching }).stuck()).toEqual({
      architectures: [
        { name: 'arm64', waiting: 1 },
        { name: 'riscv64', waiting: 1 },
      ],
      workRequestIds: [95, 60],
    });
  });

  it('counts work any worker may take as stuck only when no worker at all is connected', async () => {
    const anyArch = [{ workRequestId: 61, lastStatus: 'pending' }];
    pending.push(wr({ id: 62, scheduler_tags_required: [] }));
    anyArch.push({ workRequestId: 62, lastStatus: 'pending' });
    try {
      expect((await stand({ watched: anyArch }).stuck()).workRequestIds).toEqual([]);
      const none = {
        ...STATUS,
        external_workers_arch: {
          amd64: { registered: 1, connected: 0, idle: 0, busy: 0 },
        },
      };
      expect(await stand({ watched: anyArch, status: none }).stuck()).toEqual({
        architectures: [
          { name: null, waiting: 1 },
          { name: 'amd64', waiting: 1 },
        ],
        workRequestIds: [62, 61],
      });
    } finally {
      pending.pop();
    }
  });

  it('reads nothing when nothing watched is under way, or the server cannot list pending work', async () => {
    const idle = stand({ watched: [{ workRequestId: 12, lastStatus: 'completed' }] });
    expect(await idle.stuck()).toEqual({ architectures: [], workRequestIds: [] });
    expect(idle.iter).not.toHaveBeenCalled();
    const old = stand({ watched: watching, filters: false });
    expect(await old.stuck()).toEqual({ architectures: [], workRequestIds: [] });
    expect(old.iter).not.toHaveBeenCalled();
  });

  it('keeps an answer a minute for the same server and watch list, and no longer', async () => {
    let t = 0;
    const s = stand({ watched: watching, now: () => t });
    await s.stuck();
    t = STUCK_TTL_MS - 1;
    await s.stuck();
    expect(s.iter).toHaveBeenCalledTimes(1);
    s.switchTo('two');
    await s.stuck();
    expect(s.iter).toHaveBeenCalledTimes(2);
    t = 2 * STUCK_TTL_MS;
    await s.stuck();
    expect(s.iter).toHaveBeenCalledTimes(3);
  });
});
