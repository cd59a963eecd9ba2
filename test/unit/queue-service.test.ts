/**
 * `queue.estimate` against a stand-in client: the step's place from the pending work the
 * user sees and the server's counts, its usual wait from the metrics text, its usual run
 * from the task history's last success; and what happens when the server cannot say (an
 * earlier server without counts: the pending list is not even read), or lies (a duration
 * out of bounds is not believed).
 */
import { describe, expect, it, vi } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { queueHandlers } from '../../src/main/service/queue';
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
  status?: () => Promise<unknown>;
  lookup?: () => Promise<unknown>;
  /** Whether the server filters its work request list (0.11 does not). */
  filters?: boolean;
}

function handlers(stand: Stand) {
  const iter = vi.fn(async function* () {
    await Promise.resolve();
    yield* stand.pending ?? [];
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
  const estimate = (id: number) => queueHandlers(session)['queue.estimate']({ id }, testCaller());
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
  return { status: () => queueHandlers(session)['queue.status'](undefined, testCaller()) };
}
