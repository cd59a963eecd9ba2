/**
 * The earlier (0.11) sandbox recovers by itself from its worker missing its work: a worker
 * that asked for work at the moment the scheduler assigned it some got "no work" and never
 * asked again, so the work request stayed pending with the worker assigned (seen on a busy
 * machine, where every later test then timed out). The state is made here as that race
 * leaves it: a noop work request assigned to the worker through Debusine's own ORM, which
 * tells the worker nothing. The sandbox's watchdog (test/debusine-server/worker-watchdog.sh)
 * restarts the worker, which asks for work as it connects, and the work request completes.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/clients';
import { debusineAdminShell } from '../support/debusine-admin';
import { hasServer, testServer } from '../support/sandbox';

const server = hasServer('earlier') ? testServer('earlier') : undefined;
const root = server?.root;

const STUCK = `
from debusine.db.models import WorkRequest, Worker, Workspace, User
worker = Worker.objects.filter(connected_at__isnull=False).exclude(name__startswith='celery').first()
wr = WorkRequest.objects.create(
    workspace=Workspace.objects.get(name='System'),
    created_by=User.objects.get(username='${server?.users.owner.username ?? ''}'),
    task_name='noop',
    task_data={'result': True},
    worker=worker,
    status=WorkRequest.Statuses.PENDING,
)
print(wr.id)
`;

describe.runIf(root !== undefined)('the earlier sandbox, when its worker misses its work', () => {
  const client = ownerClient('earlier');
  afterAll(async () => {
    await client.close();
  });

  it(
    'restarts the worker, and the work request assigned to it completes',
    { timeout: 120_000 },
    async () => {
      const id = Number((await debusineAdminShell(root ?? '', STUCK)).trim().split('\n').at(-1));
      expect(id).toBeGreaterThan(0);
      await expect
        .poll(async () => (await client.workRequestGet(id)).status, {
          timeout: 90_000,
          interval: 2_000,
        })
        .toBe('completed');
      const log = readFileSync(join(dirname(root ?? ''), 'logs', 'watchdog.log'), 'utf8');
      expect(log).toMatch(new RegExp(`work request\\(s\\).* ${String(id)}( |$)`, 'm'));
    },
  );
});
