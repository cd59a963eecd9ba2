import { expect, it } from 'vitest';
import { waitForCompletion, createNoop } from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

// The ground every other integration test stands on: a real server, a real worker, and a
// noop work request that really completes.
describeOnEachServer('the %s Debusine server', ({ server, client }) => {
  it('knows the owner by token', async () => {
    const me = await client.whoami();
    expect(me.auth).toBe(true);
    if (server.sandbox) expect(me.user).toBe(server.users.owner.username);
  });

  it('runs a noop work request to success', async () => {
    const created = await createNoop(client);
    expect(created.task_name).toBe('noop');
    expect(created.workspace).toBe(server.workspaces.default);
    expect(['pending', 'running', 'completed']).toContain(created.status);

    const fetched = await client.workRequestGet(created.id);
    expect(fetched.id).toBe(created.id);
    expect(fetched.created_at).toBe(created.created_at);

    if (server.worker) {
      const done = await waitForCompletion(client, created.id);
      expect(done.status).toBe('completed');
      expect(done.result).toBe('success');
      expect(done.completed_at).not.toBeNull();
    }
  });
});
