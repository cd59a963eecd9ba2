import { expect, it } from 'vitest';
import { collect } from '../../src/main/api/pagination';
import type { DebusineError } from '../../src/shared/errors';
import { rejection, waitForCompletion, workerClientFor, createNoop } from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

describeOnEachServer('work requests on the %s server', ({ flavour, server, client }) => {
  const failing = flavour === 'current' ? { result: 'failure' } : { result: false };

  it('detects the revision once', async () => {
    const revision = await client.serverRevision();
    expect(revision.generation).toBe(flavour);
    expect(revision.release).toBe(flavour === 'current' ? '0.13 or later' : '0.11');
    expect(await client.serverRevision()).toBe(revision);
  });

  it('workRequestCreate, workRequestGet and workRequestIter (lazy, across pages)', async () => {
    const created = await client.workRequestCreate({
      task_name: 'noop',
      task_data: {},
      event_reactions: {},
      workspace: server.workspaces.default,
    });
    expect(created.workspace).toBe(server.workspaces.default);
    const got = await client.workRequestGet(created.id);
    expect(got.task_name).toBe('noop');
    // Page size is 10: 25 items need three pages of the cursor form.
    const present = (await collect(client.workRequestIter(), 25)).length;
    for (let i = present; i < 25; i++) {
      await createNoop(client);
    }
    const listed = await collect(client.workRequestIter(), 25);
    expect(listed).toHaveLength(25);
    expect(new Set(listed.map((w) => w.id)).size).toBe(25);
    expect(listed.some((w) => w.id >= created.id)).toBe(true);
    // Newest first by creation time (`-created_at`), which is not always id order: two
    // work requests created at once may take their ids in the other order.
    const times = listed.map((w) => Date.parse(w.created_at));
    expect(times.every((t) => !Number.isNaN(t))).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('workRequestIter filters by status, task type and ids', async () => {
    // No waiting for the worker: the sandbox's scheduling sometimes stalls for minutes.
    const done = await createNoop(client);
    const byIds = await collect(client.workRequestIter({ ids: [done.id] }), 5);
    expect(byIds.map((w) => w.id)).toEqual([done.id]);
    const completed = await collect(client.workRequestIter({ status: 'completed' }), 12);
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.every((w) => w.status === 'completed')).toBe(true);
    const workers = await collect(client.workRequestIter({ taskType: 'Worker' }), 3);
    expect(workers.every((w) => w.task_type === 'Worker')).toBe(true);
    if (flavour === 'current') {
      const roots = await collect(client.workRequestIter({ rootOnly: true }), 12);
      expect(roots.every((w) => w.parent === null || w.parent === undefined)).toBe(true);
    } else {
      const error = await rejection(collect(client.workRequestIter({ rootOnly: true }), 1));
      expect(error.code).toBe('unsupported');
    }
  });

  it('workRequestRetry supersedes a failed work request with a new one', async () => {
    const created = await client.workRequestCreate({
      task_name: 'noop',
      task_data: failing,
      event_reactions: {},
    });
    const failed = await waitForCompletion(client, created.id);
    expect(failed.result).toBe('failure');
    const retried = await client.workRequestRetry(created.id);
    expect(retried.id).not.toBe(created.id);
    expect(retried.task_data).toEqual(failing);
    // A successful one cannot be retried: the server's 400 arrives as `validation`.
    const ok = await waitForCompletion(client, (await createNoop(client)).id);
    const error = await rejection(client.workRequestRetry(ok.id));
    expect(error.code).toBe('validation');
    expect(error.details.status).toBe(400);
  });

  it('workRequestUpdate lowers the priority of an own work request', async () => {
    const created = await createNoop(client);
    // Not while it runs: 0.11 saves the whole work request when it completes, which can
    // put back the priority read before the change (the server's lost update, not ours).
    await waitForCompletion(client, created.id);
    const updated = await client.workRequestUpdate(created.id, -5);
    expect(updated.id).toBe(created.id);
    expect(updated.priority_adjustment).toBe(-5);
    expect((await client.workRequestGet(created.id)).priority_adjustment).toBe(-5);
    // Back to 0 (also a non-positive adjustment, which owners may set).
    expect((await client.workRequestUpdate(created.id, 0)).priority_adjustment).toBe(0);
  });

  it('workRequestAbort aborts on current servers, is unsupported on 0.11', async () => {
    if (flavour === 'earlier') {
      const error = await rejection(client.workRequestAbort(1));
      expect(error.code).toBe('unsupported');
      expect(error.details.server).toBe(server.apiUrl);
      expect(error.message).toContain('0.11');
      return;
    }
    const created = await createNoop(client);
    try {
      const aborted = await client.workRequestAbort(created.id);
      expect(aborted.status).toBe('aborted');
    } catch (error) {
      // The worker was faster: the server refuses to abort what already ran.
      expect((error as DebusineError).code).toBe('validation');
    }
    // Aborted or completed, it cannot be aborted (again): the real refusal.
    await waitForCompletion(client, created.id);
    const refused = await rejection(client.workRequestAbort(created.id));
    expect(refused.code).toBe('validation');
    expect(refused.details.status).toBe(400);
  });

  it('workRequestUnblock refuses a work request that is not blocked (real 400)', async () => {
    const done = await createNoop(client);
    const error = await rejection(client.workRequestUnblock(done.id, { action: 'accept' }));
    expect(['validation', 'forbidden']).toContain(error.code);
    expect(error.details.status).toBeGreaterThanOrEqual(400);
  });

  it('workRequestConfirm: a real refusal for a non-confirm step, unsupported on 0.11', async () => {
    const done = await createNoop(client);
    const error = await rejection(client.workRequestConfirm(done.id, { confirm: true }));
    expect(error.code).toBe(flavour === 'current' ? 'validation' : 'unsupported');
  });

  it('workRequestExternalDebsignGet/Complete: the real refusal for a non-debsign request', async () => {
    const done = await createNoop(client);
    const get = await rejection(client.workRequestExternalDebsignGet(done.id));
    expect(get.code).toBe('validation');
    expect(get.details.status).toBe(400);
    const complete = await rejection(
      client.workRequestExternalDebsignComplete(done.id, { signed_artifact: 1 }),
    );
    expect(complete.code).toBe('validation');
  });

  it('workRequestCompletedUpdate: refused for a user token; real on 0.11 with the worker token', async () => {
    const created = await createNoop(client);
    const refused = await rejection(
      client.workRequestCompletedUpdate(created.id, { result: 'success' }),
    );
    expect(['forbidden', 'auth']).toContain(refused.code);
    expect(refused.details.status).toBe(403);
    const worker = workerClientFor(server);
    if (flavour === 'earlier' && worker) {
      const done = await waitForCompletion(client, created.id);
      try {
        // The worker that ran it reports again: the server accepts and keeps the result.
        await worker.workRequestCompletedUpdate(done.id, { result: 'success' });
        const after = await client.workRequestGet(done.id);
        expect(after.result).toBe('success');
      } finally {
        await worker.close();
      }
    }
  });
});
