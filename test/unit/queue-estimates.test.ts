/**
 * The queue's numbers as the app reads them from a server that may lie or be silent: where
 * a pending work request stands against the scheduler's order (effective priority, then
 * age; only its architecture's work competes; work the user cannot see counted apart), how
 * long its task usually waits to start (the median bucket of the server's own histogram,
 * never finer, and nothing from too few starts), and how long it usually runs (the server's
 * last successful run like it, believed only within bounds).
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_METRICS_CHARS,
  parseStartLatencies,
  usualStart,
} from '../../src/main/queue/start-latency';
import {
  architectureOf,
  queuePosition,
  queuedWork,
  type QueuedWork,
} from '../../src/main/queue/position';
import { lastSuccessLookup, usualRunOf } from '../../src/main/queue/usual-run';
import {
  positionText,
  runProgress,
  spokenDuration,
  usualStartText,
} from '../../src/shared/results/queue';
import { pendingBuildFixture } from '../support/work-requests';

/** A pending build with no scheduler tags (an earlier server's), unless given some. */
const wr = (extra: Parameters<typeof pendingBuildFixture>[0] = {}) =>
  pendingBuildFixture({ scheduler_tags_required: undefined, ...extra });

const at = (minute: number) => Date.parse(`2026-11-29T10:${String(minute).padStart(2, '0')}:00Z`);
const work = (id: number, minute: number, priority = 0, architecture: string | null = 'amd64') =>
  ({ id, createdAt: at(minute), priority, architecture }) satisfies QueuedWork;

describe('a pending work request’s place in the queue', () => {
  it('counts what the scheduler offers first: higher priority, then older, on its architecture', () => {
    const mine = work(10, 30);
    const visible = [
      work(1, 10), // older: ahead
      work(2, 40), // younger: behind
      work(3, 50, 5), // younger but more urgent: ahead
      work(4, 5, -1), // older but less urgent: behind
      work(5, 1, 0, 'i386'), // another architecture: not competing
      work(6, 2, 0, null), // needs no architecture: not counted for amd64
      mine,
    ];
    expect(queuePosition(mine, visible, null)).toEqual({
      architecture: 'amd64',
      ahead: 2,
      hidden: null,
      workers: null,
    });
  });

  it('breaks a tie of priority and time by id, as the database orders equal rows', () => {
    const mine = work(10, 30);
    expect(queuePosition(mine, [work(9, 30), work(11, 30), mine], null).ahead).toBe(1);
  });

  it('counts the work the user cannot see apart: the position is then a lower bound', () => {
    const mine = work(10, 30);
    const workers = { registered: 2, connected: 1, idle: 0, busy: 1 };
    const position = queuePosition(mine, [work(1, 10), mine], {
      workers,
      pending: 6,
      running: 1,
    });
    expect(position).toEqual({ architecture: 'amd64', ahead: 1, hidden: 4, workers });
    // A server that counts fewer than the user sees (a count taken a moment earlier) hides
    // nothing rather than a negative number.
    expect(
      queuePosition(mine, [work(1, 10), mine], { workers, pending: 1, running: 0 }).hidden,
    ).toBe(0);
  });

  it('takes the architecture from the scheduler’s tags, and nothing that is not one', () => {
    expect(
      architectureOf(
        wr({ scheduler_tags_required: ['worker:executor:unshare', 'worker:build-arch:arm64'] }),
      ),
    ).toBe('arm64');
    expect(architectureOf(wr({ scheduler_tags_required: ['worker:type:external'] }))).toBeNull();
    expect(
      architectureOf(wr({ scheduler_tags_required: ['worker:build-arch:../../etc'] })),
    ).toBeNull();
    // An earlier server without tags: the task's own field.
    expect(architectureOf(wr({ task_data: { host_architecture: 'i386' } }))).toBe('i386');
    expect(architectureOf(wr({ task_data: { host_architecture: { x: 1 } } }))).toBeNull();
    expect(
      queuedWork(
        wr({
          id: 7,
          priority_base: 2,
          priority_adjustment: -5,
          created_at: '2026-11-29T10:01:00Z',
        }),
      ),
    ).toEqual({ id: 7, priority: -3, createdAt: at(1), architecture: null });
  });
});

const METRICS = `# HELP debusine_work_request_start_latency Histogram of time that work requests spent waiting to start.
# TYPE debusine_work_request_start_latency histogram
debusine_work_request_start_latency_bucket{le="1.0",priority="normal",task_name="sbuild",task_type="Worker"} 0.0
debusine_work_request_start_latency_bucket{le="5.0",priority="normal",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_bucket{le="60.0",priority="normal",task_name="sbuild",task_type="Worker"} 2.0
debusine_work_request_start_latency_bucket{le="300.0",priority="normal",task_name="sbuild",task_type="Worker"} 4.0
debusine_work_request_start_latency_bucket{le="+Inf",priority="normal",task_name="sbuild",task_type="Worker"} 5.0
debusine_work_request_start_latency_count{priority="normal",task_name="sbuild",task_type="Worker"} 5.0
debusine_work_request_start_latency_sum{priority="normal",task_name="sbuild",task_type="Worker"} 700.0
debusine_work_request_start_latency_bucket{le="1.0",priority="high",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_bucket{le="5.0",priority="high",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_bucket{le="60.0",priority="high",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_bucket{le="300.0",priority="high",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_bucket{le="+Inf",priority="high",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_count{priority="high",task_name="sbuild",task_type="Worker"} 1.0
debusine_work_request_start_latency_bucket{le="60.0",priority="normal",task_name="lintian",task_type="Worker"} 0.0
debusine_work_request_start_latency_bucket{le="+Inf",priority="normal",task_name="lintian",task_type="Worker"} 4.0
debusine_work_request_start_latency_count{priority="normal",task_name="lintian",task_type="Worker"} 4.0
debusine_work_request_start_latency_bucket{le="60.0",priority="normal",task_name="noop",task_type="Worker"} 2.0
debusine_work_request_start_latency_count{priority="normal",task_name="noop",task_type="Worker"} 2.0
django_http_requests_total_by_method_total{method="GET"} 93.0
`;

describe('how long a task usually waits to start', () => {
  it('is the bound of the bucket that holds the median start, every priority summed', () => {
    const latencies = parseStartLatencies(METRICS);
    // 6 starts: 2 within 5 s, 3 within 60 s, 5 within 300 s: half began within 60 s.
    expect(usualStart(latencies, 'Worker', 'sbuild')).toEqual({
      kind: 'within',
      seconds: 60,
      samples: 6,
    });
    // One more slow start, and half no longer began within 60 s.
    const slower = parseStartLatencies(
      `${METRICS}debusine_work_request_start_latency_bucket{le="+Inf",priority="low",task_name="sbuild",task_type="Worker"} 1.0\ndebusine_work_request_start_latency_count{priority="low",task_name="sbuild",task_type="Worker"} 1.0\n`,
    );
    expect(usualStart(slower, 'Worker', 'sbuild')).toMatchObject({ kind: 'within', seconds: 300 });
  });

  it('says "longer than" past the last bound, and nothing from too few starts or none', () => {
    const latencies = parseStartLatencies(METRICS);
    expect(usualStart(latencies, 'Worker', 'lintian')).toEqual({
      kind: 'longer',
      seconds: 60,
      samples: 4,
    });
    expect(usualStart(latencies, 'Worker', 'noop')).toEqual({
      kind: 'unknown',
      reason: 'too-few',
      samples: 2,
    });
    expect(usualStart(latencies, 'Worker', 'piuparts')).toMatchObject({ reason: 'too-few' });
    expect(usualStart(null, 'Worker', 'sbuild')).toMatchObject({ reason: 'no-metrics' });
  });

  it('skips what does not parse, and reads no further than its bound', () => {
    const hostile = [
      'debusine_work_request_start_latency_bucket{le="-5",task_name="sbuild",task_type="Worker"} 9',
      'debusine_work_request_start_latency_bucket{le="x",task_name="sbuild",task_type="Worker"} 9',
      'debusine_work_request_start_latency_bucket{le="60.0",task_name="sbuild",task_type="Worker"} -3',
      'debusine_work_request_start_latency_bucket{le="60.0",task_name="sbuild",task_type="Worker"} NaN',
      'debusine_work_request_start_latency_count{task_name="sbuild"} 99',
      'debusine_work_request_start_latency_bucket{le="60.0",task_name="sbuild",task_type="Worker"}',
    ].join('\n');
    expect(parseStartLatencies(hostile).size).toBe(0);
    const huge = `${'#'.repeat(MAX_METRICS_CHARS)}\n${METRICS}`;
    expect(parseStartLatencies(huge).size).toBe(0);
  });
});

describe('how long a task usually runs', () => {
  it('names the last successful run like it, quoted as the server quotes', () => {
    const running = wr({
      status: 'running',
      dynamic_task_data: { subject: 'hello', runtime_context: 'any:amd64:amd64' },
    });
    expect(lastSuccessLookup(running)).toBe(
      '_@debusine:task-history/last-success:Worker:sbuild:hello:any%3Aamd64%3Aamd64',
    );
    expect(
      lastSuccessLookup(
        wr({
          task_name: 'lintian',
          dynamic_task_data: { subject: "it's(x)*", runtime_context: null },
        }),
      ),
    ).toBe('_@debusine:task-history/last-success:Worker:lintian:it%27s%28x%29%2A:');
    // Not computed yet (a pending step), or not text: nothing to ask.
    expect(lastSuccessLookup(wr({}))).toBeNull();
    expect(lastSuccessLookup(wr({ dynamic_task_data: {} }))).toBeNull();
    expect(lastSuccessLookup(wr({ dynamic_task_data: { subject: 5 } }))).toBeNull();
  });

  it('believes a run’s duration only within bounds, and only a successful one', () => {
    const good = {
      result: 'success',
      timestamp: 1795895182,
      work_request_id: 2,
      runtime_statistics: { duration: 210, duration_run: 206 },
    };
    expect(usualRunOf(good)).toEqual({
      seconds: 210,
      endedAt: 1795895182000,
      workRequestId: 2,
    });
    expect(usualRunOf({ ...good, result: 'failure' })).toBeNull();
    for (const duration of [-1, Number.NaN, 8 * 24 * 3600, '210', null]) {
      expect(usualRunOf({ ...good, runtime_statistics: { duration } })).toBeNull();
    }
    expect(usualRunOf({ ...good, runtime_statistics: 'x' })).toBeNull();
    expect(usualRunOf({ ...good, timestamp: 'soon', work_request_id: -4 })).toEqual({
      seconds: 210,
      endedAt: null,
      workRequestId: null,
    });
  });

  it('measures a running step against it, and never calls an overdue one done', () => {
    const usual = { seconds: 600, endedAt: null, workRequestId: 1 };
    const start = at(0);
    expect(runProgress(start, usual, start + 300_000)).toMatchObject({
      kind: 'usual',
      elapsed: 300,
      fraction: 0.5,
      overdue: false,
    });
    expect(runProgress(start, usual, start + 900_000)).toMatchObject({
      fraction: 0.99,
      overdue: true,
    });
    expect(runProgress(start, null, start + 60_000)).toEqual({ kind: 'unknown', elapsed: 60 });
    expect(runProgress(start, { ...usual, seconds: 0 }, start)).toEqual({
      kind: 'unknown',
      elapsed: 0,
    });
  });
});

describe('what the page says', () => {
  const workers = { registered: 2, connected: 2, idle: 0, busy: 2 };
  const position = {
    architecture: 'amd64',
    ahead: 3,
    hidden: 0,
    truncated: false,
    workers,
  };

  it('says the place, as a lower bound when work is hidden or unread', () => {
    expect(positionText(position)).toBe('3 ahead of you on amd64 (2 of 2 workers busy)');
    expect(positionText({ ...position, ahead: 0 })).toBe('Next on amd64 (2 of 2 workers busy)');
    expect(positionText({ ...position, hidden: 4 })).toBe(
      'At least 3 ahead of you on amd64, and 4 more pending that you cannot see (2 of 2 workers busy)',
    );
    expect(positionText({ ...position, truncated: true, workers: null })).toBe(
      'At least 3 ahead of you on amd64',
    );
    expect(positionText({ ...position, workers: { ...workers, connected: 0, busy: 0 } })).toBe(
      'No worker on amd64 is connected: it cannot start until one is',
    );
    expect(positionText(null)).toBeNull();
  });

  it('says that an idle worker has not taken it, rather than let it look free', () => {
    const oneIdle = { registered: 2, connected: 2, idle: 1, busy: 1 };
    expect(positionText({ ...position, ahead: 0, workers: oneIdle })).toBe(
      'Next on amd64 (1 of 2 workers busy; the idle one has not taken it: not every worker runs every task)',
    );
    const twoIdle = { registered: 3, connected: 3, idle: 2, busy: 1 };
    expect(positionText({ ...position, workers: twoIdle })).toBe(
      '3 ahead of you on amd64 (1 of 3 workers busy; the 2 idle ones have not taken it: not every worker runs every task)',
    );
  });

  it('says the usual wait from the histogram, and why it cannot when it cannot', () => {
    expect(usualStartText({ kind: 'within', seconds: 300, samples: 6 }, 'sbuild')).toBe(
      'Usually starts within 5 min (half of the last 6 sbuild starts)',
    );
    expect(usualStartText({ kind: 'unknown', reason: 'too-few', samples: 1 }, 'sbuild')).toBe(
      'Too few sbuild starts on this server to say when it usually starts',
    );
    expect(spokenDuration(340)).toBe('5 min 40 s');
    expect(spokenDuration(4800)).toBe('1 h 20 min');
    expect(spokenDuration(40.4)).toBe('40 s');
  });
});
