/**
 * The queue's numbers on real servers, read by the app and by curl on the same server in
 * the same run: the current server's counts per architecture and its start-latency
 * histogram (the app's parse against the sum of the same lines curl fetches), the task
 * history's last success of a real run named as the server quotes it (its duration the
 * work request's own), and the app's estimate of a step with nothing to place.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { lastSuccessLookup, usualRunOf } from '../../src/main/queue/usual-run';
import { parseStartLatencies, usualStart } from '../../src/main/queue/start-latency';
import { appService } from '../support/app-upload';
import { createNoop, waitForCompletion } from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

describeOnEachServer('the queue’s numbers on the %s server', ({ flavour, server, client }) => {
  it('counts pending and running work and workers per architecture', async () => {
    const status = await client.serviceStatus();
    const amd64 = status.external_workers_arch?.amd64;
    expect(amd64?.registered).toBeGreaterThanOrEqual(1);
    expect(status.worker_tasks_arch?.amd64).toMatchObject({
      pending: expect.any(Number) as number,
      running: expect.any(Number) as number,
    });
  });

  it('reads the start-latency histogram as curl shows it', async () => {
    if (flavour === 'earlier') return;
    // At least one start of a noop is counted, whatever ran before.
    const noop = await createNoop(client);
    await waitForCompletion(client, noop.id, 120_000);
    const ours = parseStartLatencies(await client.openMetrics());
    const text = execFileSync('curl', ['-sf', `${server.apiUrl}/1.0/open-metrics/`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // The peer's count: every priority's line for Worker noop, summed.
    const counted = text
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('debusine_work_request_start_latency_count{') &&
          l.includes('task_name="noop"') &&
          l.includes('task_type="Worker"'),
      )
      .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    expect(counted).toBeGreaterThanOrEqual(1);
    // The two reads a moment apart: a start may have been counted in between.
    expect(ours.get('Worker/noop')?.count).toBeGreaterThanOrEqual(counted);
    expect(ours.get('Worker/noop')?.count).toBeLessThanOrEqual(counted + 20);
    const usual = usualStart(ours, 'Worker', 'noop');
    if (counted >= 3) expect(['within', 'longer']).toContain(usual.kind);
  });

  it('finds the last success of a real run in the task history, with its own duration', async () => {
    if (flavour === 'earlier') return;
    const noop = await createNoop(client);
    const done = await waitForCompletion(client, noop.id, 120_000);
    const lookup = lastSuccessLookup({
      ...done,
      dynamic_task_data: { subject: null, runtime_context: null },
    });
    expect(lookup).toBe('_@debusine:task-history/last-success:Worker:noop::');
    const found = await client.lookupSingle({
      lookup: lookup ?? '',
      workspace: done.workspace,
      expect_type: 'bare',
    });
    const item = found.collection_item as { data: Record<string, unknown> };
    const run = usualRunOf(item.data);
    expect(run).not.toBeNull();
    // The newest success of a noop here: this one, or one that ended just after it.
    expect(run?.workRequestId).toBeGreaterThanOrEqual(done.id);
    expect(run?.seconds).toBeLessThan(120);
  });

  it('gives the app’s estimate of a finished step as empty, and of none as unknown', async () => {
    const s = await appService(server);
    try {
      const noop = await createNoop(client);
      await waitForCompletion(client, noop.id, 120_000);
      const e = await s.api.queue.estimate({ id: noop.id });
      expect(e).toEqual({
        workRequestId: noop.id,
        position: null,
        usualStart: null,
        usualRun: null,
        historyAsked: false,
        missing: [],
      });
    } finally {
      await s.close();
    }
  });
});
